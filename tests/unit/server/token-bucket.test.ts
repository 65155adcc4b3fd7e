import { describe, expect, it } from 'vitest';
import { TokenBucket } from '../../../server/realtime/token-bucket.js';

describe('TokenBucket', () => {
  it('allows a burst up to capacity, then refuses until time passes', () => {
    let now = 0;
    const bucket = new TokenBucket(3, 1, () => now);
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()]).toEqual([
      true,
      true,
      true,
      false,
    ]);
    now = 1000;
    expect(bucket.take()).toBe(true);
    expect(bucket.take()).toBe(false);
  });

  it('never refills above capacity after a long idle time', () => {
    let now = 0;
    const bucket = new TokenBucket(2, 10, () => now);
    now = 60_000;
    expect([bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, false]);
  });

  it('sustains ten frames a second at a 20/s refill', () => {
    let now = 0;
    const bucket = new TokenBucket(40, 20, () => now);
    for (let i = 0; i < 600; i += 1) {
      now += 100;
      expect(bucket.take()).toBe(true);
    }
  });
});
