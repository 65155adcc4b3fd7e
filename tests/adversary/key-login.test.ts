/**
 * Key login against a member with a self-made key and one with a registered key of their own
 * (SECURITY.md "key login"), over real HTTP against the real server with two verify workers.
 * Each test names what it proves: a signature only ever opens a session for the key it was
 * checked against, whatever order the workers answer in, and a challenge opens one session at
 * most, however often its answer is replayed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesToNumbers } from '../../shared/crypto/bytes.js';
import { createKeyFile, signChallenge } from '../../shared/crypto/key-file.js';
import { type KeyFile } from '../../shared/crypto/key-file-schema.js';
import { VerifyResponseSchema } from '../../shared/protocol/http/auth.js';
import { login, makeRegisteredKey } from '../support/keys.js';
import { startServer, type TestServer } from '../support/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({
    deps: {
      // Room for many attempts from one address at once: what is under test is the answer to each.
      loginRatePerMinute: 10_000,
      keyLoginFailuresPerWindow: 1_000,
      loginVerification: { workers: 2, maxPending: 256, maxPendingPerVisitor: 64 },
    },
  });
});
afterAll(async () => {
  await server.stop();
});

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function post(path: string, body: unknown): Promise<Answer> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function challengeFor(keyId: string): Promise<string> {
  const answer = await post('/api/auth/challenge', { keyId });
  expect(answer.status).toBe(200);
  return answer.body.challenge as string;
}

/** A verify body claiming `keyId`, with `signer`'s signatures over `challenge`. */
async function verifyBody(keyId: string, challenge: string, signer: KeyFile) {
  const signatures = await signChallenge(signer, challenge);
  return {
    keyId,
    challenge,
    dilithiumSignature: bytesToNumbers(signatures.dilithiumSignature),
    ecdsaSignature: bytesToNumbers(signatures.ecdsaSignature),
  };
}

describe('key login against hostile members', () => {
  it('a self-made key gets no challenge, and its signatures open no session for a registered key', async () => {
    const victim = await makeRegisteredKey(server.baseUrl, { username: 'victim-self-made' });
    const forged = await createKeyFile({
      username: 'victim-self-made',
      level: 'admin',
      validityDays: 365,
    });

    const own = await post('/api/auth/challenge', { keyId: forged.keyId });
    expect(own.status).toBe(401);
    expect(own.body.sessionToken).toBeUndefined();

    // The forged file even claims the victim's key id.
    const claimed = await post(
      '/api/auth/verify',
      await verifyBody(victim.keyId, await challengeFor(victim.keyId), forged),
    );
    expect(claimed.status).toBe(401);
    expect(claimed.body.sessionToken).toBeUndefined();
  });

  it('forged verifications for another holder, raced among valid ones for the own key, all fail', async () => {
    const mallory = await makeRegisteredKey(server.baseUrl, { username: 'mallory-race' });
    const victim = await makeRegisteredKey(server.baseUrl, { username: 'victim-race' });
    const rounds = 12;
    const bodies: { forged: boolean; body: unknown }[] = [];
    for (let index = 0; index < rounds; index += 1) {
      bodies.push({
        forged: false,
        body: await verifyBody(mallory.keyId, await challengeFor(mallory.keyId), mallory),
      });
      // The victim's challenge signed by mallory, under the victim's key id …
      bodies.push({
        forged: true,
        body: await verifyBody(victim.keyId, await challengeFor(victim.keyId), mallory),
      });
      // … and under mallory's own (a challenge issued to another key).
      bodies.push({
        forged: true,
        body: await verifyBody(mallory.keyId, await challengeFor(victim.keyId), mallory),
      });
    }

    // All at once: the two workers answer in whatever order they finish.
    const answers = await Promise.all(bodies.map(({ body }) => post('/api/auth/verify', body)));

    answers.forEach((answer, index) => {
      if (bodies[index]!.forged) {
        expect(answer.status).toBe(401);
        expect(answer.body.sessionToken).toBeUndefined();
      } else {
        expect(answer.status).toBe(200);
        expect(VerifyResponseSchema.parse(answer.body).user.keyId).toBe(mallory.keyId);
      }
    });
    // The victim's own login still works: mallory's failures never spoke for the victim.
    const real = await login(server.baseUrl, victim);
    expect(real.status).toBe(200);
    expect(VerifyResponseSchema.parse(real.body).user.keyId).toBe(victim.keyId);
  });

  it('a replayed valid verification opens one session, however many copies race', async () => {
    const holder = await makeRegisteredKey(server.baseUrl, { username: 'holder-replay' });
    const body = await verifyBody(holder.keyId, await challengeFor(holder.keyId), holder);

    const answers = await Promise.all(
      Array.from({ length: 8 }, () => post('/api/auth/verify', body)),
    );

    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const answer of answers.filter((each) => each.status !== 200)) {
      expect(answer.status).toBe(401);
      expect(answer.body.sessionToken).toBeUndefined();
    }
  });
});
