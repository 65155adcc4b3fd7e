/**
 * Key login against a member with a self-made key and one with a registered key of their own
 * (SECURITY.md "key login") against the real server with two verify workers, both ways a login
 * reaches it: the HTTP routes and the frames on the chat socket (several sockets, so that frames
 * race as requests do). Each test names what it proves: a signature only ever opens a session for
 * the key it was checked against, whatever order the workers answer in, and a challenge opens one
 * session at most, however often its answer is replayed, over either way or both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesToBase64, bytesToNumbers, numbersToBytes } from '../../shared/crypto/bytes.js';
import { createKeyFile, signChallenge } from '../../shared/crypto/key-file.js';
import { type KeyFile } from '../../shared/crypto/key-file-schema.js';
import { VerifyResponseSchema } from '../../shared/protocol/http/auth.js';
import { login, makeRegisteredKey } from '../support/keys.js';
import { startServer, type TestServer } from '../support/server.js';
import { TestSocket } from '../support/ws-client.js';
import { TEXT } from '../../shared/protocol/errors.js';

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
  for (const socket of sockets) socket.close();
  await server.stop();
});

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

type Way = 'http' | 'socket';

async function overHttp(path: string, body: unknown): Promise<Answer> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The texts of the routes' 401 answers: the same refusal as an error frame. */
const UNAUTHORIZED = new Set<string>([
  TEXT.keyNotRegistered,
  TEXT.keyRevoked,
  TEXT.keyExpired,
  TEXT.challengeInvalid,
  TEXT.signatureInvalid,
]);

/** Sockets the frames go out on, in turn: a socket answers its frames in order, so eight race. */
const sockets: TestSocket[] = [];
let nextSocket = 0;
const turns = new Map<TestSocket, Promise<unknown>>();
const SOCKETS = 8;

async function socketFor(): Promise<TestSocket> {
  if (sockets.length < SOCKETS) sockets.push(await TestSocket.connect(server.wsUrl()));
  return sockets[nextSocket++ % sockets.length]!;
}

/** The route's request as its frame; the answer read as the route's status and body. */
async function overSocket(path: string, body: Record<string, unknown>): Promise<Answer> {
  const socket = await socketFor();
  const isVerify = path === '/api/auth/verify';
  const frame = isVerify
    ? {
        type: 'login_verify',
        keyId: body.keyId,
        challenge: body.challenge,
        dilithiumSignature: bytesToBase64(numbersToBytes(body.dilithiumSignature as number[])),
        ecdsaSignature: bytesToBase64(numbersToBytes(body.ecdsaSignature as number[])),
      }
    : { type: 'login_challenge', keyId: body.keyId };
  const answerType = isVerify ? 'login_session' : 'login_challenge_issued';
  // One question at a time on a socket (its answers come in order); the sockets race.
  const ask = async (): Promise<Answer> => {
    const answer = socket.next((each) => each.type === answerType || each.type === 'error', 15_000);
    socket.send(frame);
    const { type, ...rest } = await answer;
    if (type !== 'error') return { status: 200, body: rest };
    return { status: UNAUTHORIZED.has(rest.message as string) ? 401 : 400, body: rest };
  };
  const asked = (turns.get(socket) ?? Promise.resolve()).then(ask, ask);
  turns.set(socket, asked);
  return asked;
}

let way: Way = 'http';
const otherWay = (path: string, body: Record<string, unknown>): Promise<Answer> =>
  way === 'http' ? overSocket(path, body) : overHttp(path, body);
const post = (path: string, body: Record<string, unknown>): Promise<Answer> =>
  way === 'http' ? overHttp(path, body) : overSocket(path, body);

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

describe.each(['http', 'socket'] as const)('key login against hostile members (%s)', (each) => {
  beforeAll(() => {
    way = each;
  });

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
    const bodies: { forged: boolean; body: Record<string, unknown> }[] = [];
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

    // Over this way and the other at once: one allowance of sessions for a challenge, not one
    // per way.
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        index % 2 === 0 ? post('/api/auth/verify', body) : otherWay('/api/auth/verify', body),
      ),
    );

    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const answer of answers.filter((each) => each.status !== 200)) {
      expect(answer.status).toBe(401);
      expect(answer.body.sessionToken).toBeUndefined();
    }
  });
});
