/**
 * The login verifier's worker checks both signatures with its own code (node:crypto for ECDSA,
 * liboqs in WebAssembly for ML-DSA-65): it must agree with the shared crypto the browser uses.
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  VerifyPool,
  type LoginSignatures,
  type VerifierReady,
} from '../../../server/features/auth/verify-pool.js';
import { numbersToBytes, utf8Encode } from '../../../shared/crypto/bytes.js';
import { createKeyFile, signChallenge } from '../../../shared/crypto/key-file.js';

const ready: VerifierReady[] = [];
const pool = new VerifyPool({ size: 1, onReady: (report) => ready.push(report) });
afterAll(() => pool.close());

async function signedLogin(): Promise<LoginSignatures> {
  const key = await createKeyFile({ username: 'pool', level: 'user', validityDays: 1 });
  const challenge = `securechannel-login:${key.keyId}:1:${'ab'.repeat(32)}`;
  const signatures = await signChallenge(key, challenge);
  return {
    message: utf8Encode(challenge),
    mlDsaSignature: signatures.dilithiumSignature,
    mlDsaPublicKey: numbersToBytes(key.dilithiumPublicKey),
    ecdsaSignature: signatures.ecdsaSignature,
    ecdsaPublicKey: numbersToBytes(key.ecdsaPublicKey),
  };
}

const flip = (bytes: Uint8Array, index: number) => {
  const copy = bytes.slice();
  copy[index] = copy[index]! ^ 0x01;
  return copy;
};

describe('login signature verifier', () => {
  // The first login starts the worker (a thread loading its crypto modules): more than the
  // default budget on a busy machine.
  it('accepts a login signed with both keys', { timeout: 30_000 }, async () => {
    expect(await pool.verifyLogin(await signedLogin())).toBe(true);
  });

  it('says once which ML-DSA-65 implementation runs: the fast one', async () => {
    await pool.verifyLogin(await signedLogin());
    expect(ready).toEqual([{ implementation: 'liboqs-wasm', fallbackReason: null }]);
  });

  it('refuses when either signature or the message changes', async () => {
    const login = await signedLogin();
    const cases: LoginSignatures[] = [
      { ...login, ecdsaSignature: flip(login.ecdsaSignature, 10) },
      { ...login, ecdsaSignature: flip(login.ecdsaSignature, 50) },
      { ...login, mlDsaSignature: flip(login.mlDsaSignature, 100) },
      { ...login, message: flip(login.message, 0) },
    ];
    for (const signatures of cases) expect(await pool.verifyLogin(signatures)).toBe(false);
  });

  it('refuses malformed keys and signatures instead of failing', async () => {
    const login = await signedLogin();
    const other = await signedLogin();
    const offCurve = login.ecdsaPublicKey.slice();
    offCurve[64] = offCurve[64]! ^ 0xff;
    const cases: LoginSignatures[] = [
      { ...login, ecdsaPublicKey: offCurve },
      { ...login, ecdsaPublicKey: login.ecdsaPublicKey.subarray(1) },
      { ...login, ecdsaSignature: login.ecdsaSignature.subarray(0, 63) },
      { ...login, mlDsaSignature: login.mlDsaSignature.subarray(0, 3000) },
      { ...login, ecdsaPublicKey: other.ecdsaPublicKey },
      { ...login, mlDsaPublicKey: other.mlDsaPublicKey },
    ];
    for (const signatures of cases) expect(await pool.verifyLogin(signatures)).toBe(false);
  });

  it('answers many logins at once, each on its own merits', async () => {
    const login = await signedLogin();
    const bad = { ...login, ecdsaSignature: flip(login.ecdsaSignature, 3) };
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => pool.verifyLogin(i % 4 === 0 ? bad : login)),
    );
    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i % 4 !== 0));
  });
});

describe('login verifier workers', () => {
  it(
    'start with the first login and stop after being idle, then start again',
    {
      timeout: 60_000,
    },
    async () => {
      const lazy = new VerifyPool({ size: 2, idleMs: 200 });
      try {
        expect(lazy.workerCount).toBe(0);
        const login = await signedLogin();
        expect(await lazy.verifyLogin(login)).toBe(true);
        expect(lazy.workerCount).toBeGreaterThan(0);
        await expect.poll(() => lazy.workerCount, { timeout: 10_000 }).toBe(0);
        expect(await lazy.verifyLogin(login)).toBe(true);
      } finally {
        await lazy.close();
      }
      expect(lazy.workerCount).toBe(0);
    },
  );
});

describe('login verifier answers', () => {
  it('fail closed when a worker answers for another job', { timeout: 30_000 }, async () => {
    const lying = new VerifyPool({
      size: 1,
      workerUrl: new URL('../../fixtures/fakes/wrong-id-verify-worker.mjs', import.meta.url),
    });
    try {
      const login = await signedLogin();
      expect(await lying.verifyLogin(login)).toBe(false);
      expect(await lying.verifyLogin(login)).toBe(false);
    } finally {
      await lying.close();
    }
  });
});
