import { afterEach, describe, expect, it, vi } from 'vitest';
import { Connection } from '../../../server/realtime/connection.js';
import { LocalFanout } from '../../../server/realtime/fanout.js';
import { RoomChannels } from '../../../server/realtime/room-channels.js';
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
    channels.publishSoon('r', { type: 'user_joined', nodeId: 'n1' }, { exclude: alice });
    const published = channels.publishFrame('r', new SharedFrame('{"type":"new_message"}'), {
      exclude: bob,
    });
    // Nothing to wait for: delivered before publishFrame returned.
    expect(published).toBeUndefined();
    expect(a.sent).toEqual(['{"type":"new_message"}']);
    expect(b.sent).toEqual(['{"type":"user_joined","nodeId":"n1"}']);
  });

  it('unsubscribes when the last local member leaves', async () => {
    const channels = new RoomChannels(new LocalFanout());
    const alice = new Connection(fakeSocket().socket, '127.0.0.1', '/ws');
    await channels.add('r', alice);
    await channels.remove('r', alice);
    expect(channels.localRooms()).toEqual([]);
  });

  describe('news held for a moment (publishSoon)', () => {
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
    const types = (sent: string[]) =>
      sent.map((text) => (JSON.parse(text) as { type: string }).type);

    it("publishes the window's frames together, in order, each with its own exclusion", async () => {
      const { channels, alice, bob, a, b } = await room();
      channels.publishSoon('r', { type: 'user_joined', nodeId: 'n1' }, { exclude: alice });
      channels.publishSoon('r', { type: 'user_joined', nodeId: 'n2' }, { exclude: bob });
      channels.publishSoon('r', { type: 'user_joined', nodeId: 'n3' });
      expect(a.sent).toEqual([]);
      expect(b.sent).toEqual([]);
      await vi.advanceTimersByTimeAsync(50);
      expect(a.sent.map((t) => JSON.parse(t) as { nodeId: string })).toMatchObject([
        { nodeId: 'n2' },
        { nodeId: 'n3' },
      ]);
      expect(b.sent.map((t) => JSON.parse(t) as { nodeId: string })).toMatchObject([
        { nodeId: 'n1' },
        { nodeId: 'n3' },
      ]);
      // Published once: nothing more when the next window passes.
      await vi.advanceTimersByTimeAsync(100);
      expect(a.sent).toHaveLength(2);
    });

    it("writes a window's frames to each member at once, without the frame that excludes it", async () => {
      vi.useFakeTimers();
      const channels = new RoomChannels(new LocalFanout(), 50);
      const wired = () => {
        const { socket, sent } = fakeSocket();
        const written: Buffer[] = [];
        const transport = {
          writable: true,
          write: (b: Uint8Array) => written.push(Buffer.from(b)) > 0,
        };
        return { connection: new Connection(socket, '127.0.0.1', '/ws', transport), sent, written };
      };
      const [a, b, c] = [wired(), wired(), wired()];
      for (const member of [a, b, c]) await channels.add('r', member.connection);
      channels.publishSoon('r', { type: 'user_joined', nodeId: 'n1' }, { exclude: a.connection });
      channels.publishSoon('r', { type: 'user_joined', nodeId: 'n2' }, { exclude: b.connection });
      await vi.advanceTimersByTimeAsync(50);
      // One buffer for the room: c gets all of it in one write, a and b a view without theirs.
      expect(c.written).toHaveLength(1);
      expect(a.written).toHaveLength(1);
      expect(b.written).toHaveLength(1);
      expect(c.written[0]?.toString()).toContain('"n1"');
      expect(c.written[0]?.toString()).toContain('"n2"');
      expect(a.written[0]?.toString()).not.toContain('"n1"');
      expect(b.written[0]?.toString()).not.toContain('"n2"');
      expect([...a.sent, ...b.sent, ...c.sent]).toEqual([]);
    });

    it('delivers a window frame by frame when a frame is for one member only', async () => {
      const { channels, alice, a, b } = await room();
      channels.publishSoon('r', { type: 'user_joined', nodeId: 'n1' });
      channels.publishSoon('r', { type: 'key_bundle', nodeId: 'n2' }, { onlyNodeId: alice.nodeId });
      channels.publishSoon('r', { type: 'user_joined', nodeId: 'n3' });
      await vi.advanceTimersByTimeAsync(50);
      expect(types(a.sent)).toEqual(['user_joined', 'key_bundle', 'user_joined']);
      expect(types(b.sent)).toEqual(['user_joined', 'user_joined']);
    });

    it('publishes what is held before anything else published to the same room', async () => {
      const { channels, a } = await room();
      channels.publishSoon('r', { type: 'user_joined', nodeId: 'n1' });
      channels.publishSoon('other', { type: 'user_joined', nodeId: 'x' });
      await channels.publish('r', { type: 'user_left', nodeId: 'n1' });
      expect(types(a.sent)).toEqual(['user_joined', 'user_left']);
      await vi.advanceTimersByTimeAsync(50);
      expect(types(a.sent)).toEqual(['user_joined', 'user_left']);
    });

    it('publishes on demand with flush', async () => {
      const { channels, a } = await room();
      channels.publishSoon('r', { type: 'user_joined', nodeId: 'n1' });
      await channels.flush('r');
      expect(types(a.sent)).toEqual(['user_joined']);
      await channels.flush('r');
      expect(a.sent).toHaveLength(1);
    });
  });
});
