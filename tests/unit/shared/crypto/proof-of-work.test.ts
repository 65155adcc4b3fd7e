import { describe, expect, it } from 'vitest';
import {
  createPowChallenge,
  solvePowChallenge,
  verifyPowSolution,
} from '../../../../shared/crypto/proof-of-work.js';

const key = new Uint8Array(32).fill(7);
const now = 1_700_000_000_000;

describe('proof of work (ALTCHA scheme)', () => {
  it('solves a challenge by search and the server accepts the number', async () => {
    const challenge = createPowChallenge({ key, maxNumber: 2000, expiresAt: now + 60_000 });
    expect(challenge.algorithm).toBe('SHA-256');
    expect(challenge.salt).toMatch(/^[0-9a-f]{24}\?expires=\d+$/);
    const progress: number[] = [];
    const number = await solvePowChallenge(challenge, {
      chunk: 100,
      onProgress: (share) => progress.push(share),
    });
    expect(number).not.toBeNull();
    expect(verifyPowSolution(challenge, number!, key, now)).toBeNull();
    expect(progress.at(-1)).toBe(1);
    expect(progress.every((share, i) => i === 0 || share >= progress[i - 1]!)).toBe(true);
  });

  it('refuses a wrong number, a forged challenge, another key, and an expired one', async () => {
    const challenge = createPowChallenge({ key, maxNumber: 500, expiresAt: now + 60_000 });
    const number = (await solvePowChallenge(challenge))!;
    expect(verifyPowSolution(challenge, (number + 1) % 501, key, now)).toBe('invalid');
    expect(verifyPowSolution(challenge, number, new Uint8Array(32), now)).toBe('invalid');
    // A client that makes up its own easy challenge has no valid signature for it.
    const forged = {
      ...challenge,
      challenge: challenge.challenge.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')),
    };
    expect(verifyPowSolution(forged, number, key, now)).toBe('invalid');
    // The expiry is inside the salt, so changing it breaks the hash.
    expect(verifyPowSolution(challenge, number, key, now + 61_000)).toBe('expired');
    expect(
      verifyPowSolution(
        { ...challenge, salt: challenge.salt.replace(/\d+$/, '9999999999') },
        number,
        key,
        now + 61_000,
      ),
    ).toBe('invalid');
  });

  it('stops when aborted', async () => {
    const challenge = createPowChallenge({ key, maxNumber: 10_000_000, expiresAt: now + 60_000 });
    const controller = new AbortController();
    const solving = solvePowChallenge(challenge, {
      chunk: 10,
      signal: controller.signal,
      onProgress: () => controller.abort(new Error('cancelled')),
    });
    await expect(solving).rejects.toThrow('cancelled');
  });
});
