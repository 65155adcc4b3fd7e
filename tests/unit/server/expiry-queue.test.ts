import { describe, expect, it } from 'vitest';
import { ExpiryQueue } from '../../../server/lib/expiry-queue.js';
import { MemoryRateLimiter } from '../../../server/lib/rate-limiter.js';
import { MemoryAccessGrantStore } from '../../../server/features/rooms/index.js';

describe('ExpiryQueue', () => {
  it('forgets entries at their expiry and drops them from the front as new ones arrive', () => {
    let now = 0;
    const queue = new ExpiryQueue<string, number>(100, () => now);
    for (let i = 0; i < 1000; i += 1) queue.set(`k${i}`, i);
    now = 50;
    queue.set('late', 1);
    expect(queue.size).toBe(1001);
    now = 100;
    expect(queue.get('k0')).toBeUndefined();
    queue.set('later', 2);
    // The 1000 first entries expired at 100 and left on that write; the later two stay.
    expect(queue.size).toBe(2);
    expect(queue.get('late')).toBe(1);
  });

  it('moves a refreshed entry to the back with a fresh lifetime', () => {
    let now = 0;
    const queue = new ExpiryQueue<string, number>(100, () => now);
    queue.set('a', 1);
    queue.set('b', 2);
    now = 60;
    queue.set('a', 3);
    now = 120;
    queue.set('c', 4);
    expect(queue.get('b')).toBeUndefined();
    expect(queue.get('a')).toBe(3);
    expect(queue.size).toBe(2);
  });
});

describe('MemoryRateLimiter', () => {
  it('keeps only open windows however many keys have come and gone', async () => {
    let now = 0;
    const limiter = new MemoryRateLimiter(2, 1000, () => now);
    for (let i = 0; i < 5000; i += 1) await limiter.hit(`addr-${i}`);
    expect(await limiter.hit('addr-1')).toBe(true);
    expect(await limiter.hit('addr-1')).toBe(false);
    now = 1000;
    expect(await limiter.hit('addr-1')).toBe(true);
    expect(limiter.size).toBe(1);
  });
});

describe('MemoryAccessGrantStore', () => {
  it('hands one holder the same grant for a room on every issue, and expires it', async () => {
    let now = 0;
    const grants = new MemoryAccessGrantStore(() => now, 1000);
    const first = await grants.issue('room-1', 'node_a');
    for (let i = 0; i < 100; i += 1) expect(await grants.issue('room-1', 'node_a')).toBe(first);
    const other = await grants.issue('room-2', 'node_a');
    expect(other).not.toBe(first);
    expect(await grants.find(first)).toEqual({ roomId: 'room-1', holder: 'node_a' });
    expect(grants.size).toBe(2);
    now = 1000;
    expect(await grants.isValid(first, 'room-1')).toBe(false);
    await grants.issue('room-3', 'node_b');
    expect(grants.size).toBe(1);
  });
});
