import { describe, expect, it } from 'vitest';
import { Connection } from '../../../server/realtime/connection.js';
import { LocalFanout } from '../../../server/realtime/fanout.js';
import { RoomChannels } from '../../../server/realtime/room-channels.js';
import { fakeSocket } from '../../support/fake-socket.js';

describe('RoomChannels', () => {
  it('serializes an event once and writes the same string to every member but the excluded one', async () => {
    const channels = new RoomChannels(new LocalFanout());
    const a = fakeSocket();
    const b = fakeSocket();
    const c = fakeSocket();
    const alice = new Connection(a.socket, '127.0.0.1', '/ws');
    const bob = new Connection(b.socket, '127.0.0.1', '/ws');
    const outsider = new Connection(c.socket, '127.0.0.1', '/ws');
    await channels.add('room1', alice);
    await channels.add('room1', bob);
    await channels.add('room2', outsider);
    await channels.publish(
      'room1',
      { type: 'typing_start', username: 'Agent1' },
      { exclude: alice },
    );
    expect(a.sent).toEqual([]);
    expect(b.sent).toEqual(['{"type":"typing_start","username":"Agent1"}']);
    expect(c.sent).toEqual([]);
  });

  it('detaches every member when a room is closed', async () => {
    const channels = new RoomChannels(new LocalFanout());
    const a = fakeSocket();
    const alice = new Connection(a.socket, '127.0.0.1', '/ws');
    alice.roomId = 'doomed';
    await channels.add('doomed', alice);
    await channels.publish(
      'doomed',
      { type: 'room_destroyed', roomId: 'doomed' },
      { closeRoom: true },
    );
    expect(a.sent).toHaveLength(1);
    expect(alice.roomId).toBeNull();
    expect(channels.localRooms()).toEqual([]);
    await channels.publish('doomed', { type: 'new_message' });
    expect(a.sent).toHaveLength(1);
  });

  it('unsubscribes when the last local member leaves', async () => {
    const channels = new RoomChannels(new LocalFanout());
    const alice = new Connection(fakeSocket().socket, '127.0.0.1', '/ws');
    await channels.add('r', alice);
    await channels.remove('r', alice);
    expect(channels.localRooms()).toEqual([]);
  });
});
