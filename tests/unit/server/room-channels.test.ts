import { afterEach, describe, expect, it, vi } from 'vitest';
import { Connection } from '../../../server/realtime/connection.js';
import { LocalFanout } from '../../../server/realtime/fanout.js';
import {
  joinsPayload,
  RoomChannels,
  type RoomJoin,
} from '../../../server/realtime/room-channels.js';
import { roomUser } from '../../support/room-user.js';
import { ServerFrameSchema } from '../../../shared/protocol/ws/server-frames.js';
import { SharedFrame } from '../../../server/realtime/ws-frame.js';
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

  it('hands a frame to the members of one process within the call, after what the room holds', () => {
    const channels = new RoomChannels(new LocalFanout());
    const a = fakeSocket();
    const b = fakeSocket();
    const alice = new Connection(a.socket, '127.0.0.1', '/ws');
    const bob = new Connection(b.socket, '127.0.0.1', '/ws');
    void channels.add('r', alice);
    void channels.add('r', bob);
    channels.announceJoin('r', join(alice.nodeId));
    const published = channels.publishFrame('r', new SharedFrame('{"type":"new_message"}'), {
      exclude: bob,
    });
    // Nothing to wait for: delivered before publishFrame returned.
    expect(published).toBeUndefined();
    expect(a.sent).toEqual(['{"type":"new_message"}']);
    expect(types(b.sent)).toEqual(['user_joined']);
  });

  it('unsubscribes when the last local member leaves', async () => {
    const channels = new RoomChannels(new LocalFanout());
    const alice = new Connection(fakeSocket().socket, '127.0.0.1', '/ws');
    await channels.add('r', alice);
    await channels.remove('r', alice);
    expect(channels.localRooms()).toEqual([]);
  });

  describe('joins held for a moment (announceJoin)', () => {
    afterEach(() => vi.useRealTimers());

    async function room() {
      vi.useFakeTimers();
      const channels = new RoomChannels(new LocalFanout(), 50);
      const a = fakeSocket();
      const b = fakeSocket();
      const alice = new Connection(a.socket, '127.0.0.1', '/ws');
      const bob = new Connection(b.socket, '127.0.0.1', '/ws');
      await channels.add('r', alice);
      await channels.add('r', bob);
      return { channels, alice, bob, a, b };
    }

    it("tells the room of a window's one join as user_joined, without its newcomer", async () => {
      const { channels, alice, a, b } = await room();
      channels.announceJoin('r', join(alice.nodeId, 'Agent1', 2));
      expect(b.sent).toEqual([]);
      await vi.advanceTimersByTimeAsync(50);
      expect(a.sent).toEqual([]);
      expect(b.sent.map((text) => JSON.parse(text) as unknown)).toEqual([
        {
          type: 'user_joined',
          roomId: 'r',
          username: 'Agent1',
          nodeId: alice.nodeId,
          memberCount: 2,
          user: entry(alice.nodeId, 'Agent1'),
        },
      ]);
      // Published once: nothing more when the next window passes.
      await vi.advanceTimersByTimeAsync(100);
      expect(b.sent).toHaveLength(1);
    });

    it("tells the room of a window's several joins in one users_joined, to every member", async () => {
      const { channels, alice, bob, a, b } = await room();
      channels.announceJoin('r', join(alice.nodeId, 'Agent1', 3));
      channels.announceJoin('r', join(bob.nodeId, 'Agent2', 4));
      channels.announceJoin('r', join('n3', 'Agent3', 5));
      await vi.advanceTimersByTimeAsync(50);
      const expected = {
        type: 'users_joined',
        roomId: 'r',
        memberCount: 5,
        users: [entry(alice.nodeId, 'Agent1'), entry(bob.nodeId, 'Agent2'), entry('n3', 'Agent3')],
      };
      // One frame each, the same bytes: the newcomers' own entries are in it (clients skip theirs).
      expect(a.sent).toHaveLength(1);
      expect(b.sent).toEqual(a.sent);
      expect(JSON.parse(a.sent[0] ?? '')).toEqual(expected);
      expect(ServerFrameSchema.safeParse(expected).success).toBe(true);
      await vi.advanceTimersByTimeAsync(100);
      expect(a.sent).toHaveLength(1);
    });

    it('keeps the windows of different rooms apart', async () => {
      const { channels, a } = await room();
      channels.announceJoin('r', join('n1'));
      channels.announceJoin('other', join('x'));
      channels.announceJoin('other', join('y'));
      await vi.advanceTimersByTimeAsync(50);
      expect(types(a.sent)).toEqual(['user_joined']);
    });

    it('publishes what is held before anything else published to the same room', async () => {
      const { channels, a } = await room();
      channels.announceJoin('r', join('n1'));
      channels.announceJoin('r', join('n2'));
      await channels.publish('r', { type: 'user_left', nodeId: 'n1' });
      expect(types(a.sent)).toEqual(['users_joined', 'user_left']);
      await vi.advanceTimersByTimeAsync(50);
      expect(types(a.sent)).toEqual(['users_joined', 'user_left']);
    });

    it('publishes on demand with flush', async () => {
      const { channels, a } = await room();
      channels.announceJoin('r', join('n1'));
      await channels.flush('r');
      expect(types(a.sent)).toEqual(['user_joined']);
      await channels.flush('r');
      expect(a.sent).toHaveLength(1);
    });
  });

  describe('joinsPayload (the published form, heard by every process)', () => {
    it('leaves the newcomer of a single join out, and nobody out of a users_joined', () => {
      const one = joinsPayload('r', [join('n1')]);
      expect(one.slice(0, one.indexOf('\n'))).toBe('n1|0|');
      const many = joinsPayload('r', [join('n1'), join('n2')]);
      expect(many.slice(0, many.indexOf('\n'))).toBe('|0|');
    });

    it('delivers what another process published as it would its own', async () => {
      const fanout = new LocalFanout();
      const channels = new RoomChannels(fanout);
      const a = fakeSocket();
      const alice = new Connection(a.socket, '127.0.0.1', '/ws');
      await channels.add('r', alice);
      // LocalFanout hands a publish straight to the subscriber, as Redis would from elsewhere.
      await fanout.publish('room:r', joinsPayload('r', [join(alice.nodeId), join('n2')]));
      await fanout.publish('room:r', joinsPayload('r', [join(alice.nodeId)]));
      await fanout.publish('room:r', joinsPayload('r', [join('n3')]));
      expect(types(a.sent)).toEqual(['users_joined', 'user_joined']);
      expect((JSON.parse(a.sent[1] ?? '') as { nodeId: string }).nodeId).toBe('n3');
    });
  });
});

/** A list entry as the server keeps it for `nodeId`. */
const entry = (nodeId: string, username = 'Agent9') =>
  roomUser(nodeId, username, { entry: 'open' });

function join(nodeId: string, username = 'Agent9', memberCount = 1): RoomJoin {
  return { nodeId, username, memberCount, userJson: JSON.stringify(entry(nodeId, username)) };
}

const types = (sent: string[]) => sent.map((text) => (JSON.parse(text) as { type: string }).type);
