import { describe, expect, it } from 'vitest';
import { MemoryMessageStore } from '../../../server/features/messages/store.js';
import type { Message } from '../../../shared/protocol/ws/chat.js';

function message(id: string, roomId: string, createdAt: number, ttlMs = 30_000): Message {
  return {
    id,
    senderId: 'node_1',
    senderUsername: 'Agent1',
    roomId,
    content: '',
    encryptedContent: 'x',
    encryptionType: 'AES-256-GCM',
    signature: null,
    isStealthMode: false,
    hasImage: false,
    imageUrl: null,
    thumbnailUrl: null,
    imageMetadata: null,
    createdAt: new Date(createdAt).toISOString(),
    expiresAt: new Date(createdAt + ttlMs).toISOString(),
    isSystem: false,
  };
}

describe('MemoryMessageStore', () => {
  it('lists only unexpired messages, oldest first', async () => {
    const store = new MemoryMessageStore();
    await store.add(message('a', 'r', 0));
    await store.add(message('b', 'r', 10_000));
    expect((await store.list('r', 29_999)).map((m) => m.id)).toEqual(['a', 'b']);
    expect((await store.list('r', 30_000)).map((m) => m.id)).toEqual(['b']);
  });

  it('deletes expired messages and reports them by room', async () => {
    const store = new MemoryMessageStore();
    await store.add(message('a', 'r1', 0));
    await store.add(message('b', 'r2', 0));
    await store.add(message('c', 'r2', 20_000));
    const expired = await store.expire(30_000);
    expect(Object.fromEntries(expired)).toEqual({ r1: ['a'], r2: ['b'] });
    expect(await store.size()).toBe(1);
    expect(Object.fromEntries(await store.expire(30_000))).toEqual({});
  });

  it('keeps at most the bound per room by evicting the oldest', async () => {
    const store = new MemoryMessageStore(3);
    const evicted: string[] = [];
    for (let i = 0; i < 5; i += 1) evicted.push(...(await store.add(message(`m${i}`, 'r', i))));
    expect(evicted).toEqual(['m0', 'm1']);
    expect((await store.list('r', 0)).map((m) => m.id)).toEqual(['m2', 'm3', 'm4']);
  });

  it('keeps expiry order when the clock steps backwards', async () => {
    const store = new MemoryMessageStore();
    await store.add(message('late', 'r', 10_000));
    await store.add(message('early', 'r', 5_000));
    expect(Object.fromEntries(await store.expire(35_000))).toEqual({ r: ['early'] });
  });

  it("finds and removes one message, keeping every other's expiry and sender's bytes with it", async () => {
    const store = new MemoryMessageStore(500, {
      perVisitorBytes: 1_000_000,
      totalBytes: 10_000_000,
    });
    const sizeOf = (m: Message) => Buffer.byteLength(JSON.stringify(m));
    const [a, b, c] = [message('a', 'r', 0), message('b', 'r', 1_000), message('c', 'r', 2_000)];
    await store.add(a, undefined, 'alice');
    await store.add(b, undefined, 'bob');
    await store.add(c, undefined, null);
    // A clock step backwards puts this one first: the lists stay in step however it is inserted.
    const early = message('early', 'r', -1_000);
    await store.add(early, undefined, 'bob');
    expect(await store.heldBytes('bob')).toBe(sizeOf(b) + sizeOf(early));

    expect(await store.find('r', 'b', 30_999)).toEqual(b);
    expect(await store.find('r', 'b', 31_000)).toBeNull();
    expect(await store.remove('r', 'b')).toEqual(b);
    expect(await store.remove('r', 'b')).toBeNull();
    expect(await store.heldBytes('bob')).toBe(sizeOf(early));
    expect(await store.heldBytes('alice')).toBe(sizeOf(a));
    expect(await store.heldBytes(null)).toBe(sizeOf(a) + sizeOf(c) + sizeOf(early));
    expect((await store.list('r', 0)).map((m) => m.id)).toEqual(['early', 'a', 'c']);
    expect(Object.fromEntries(await store.expire(30_000))).toEqual({ r: ['early', 'a'] });
    expect(await store.heldBytes('bob')).toBe(0);
    expect(await store.heldBytes('alice')).toBe(0);
    expect(await store.find('r', 'c', 30_000)).toEqual(c);
    await store.purgeRoom('r');
    expect(await store.heldBytes(null)).toBe(0);
    expect(await store.size()).toBe(0);
  });

  it('purges a destroyed room', async () => {
    const store = new MemoryMessageStore();
    await store.add(message('a', 'gone', 0));
    await store.purgeRoom('gone');
    expect(await store.list('gone', 0)).toEqual([]);
  });
});
