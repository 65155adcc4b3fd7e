/**
 * The login driver: a child process of the bench that does everything a logging-in browser does
 * (ask for a challenge, sign it with ML-DSA-65 and ECDSA P-256, send the signatures, wait and send
 * again when the server answers 503 with Retry-After), so that the signing CPU and the HTTP
 * traffic stay out of the event loop that measures chat latency. The bench runs it pinned to the
 * load generator's CPU, ten nice steps below the generator. It signs with liboqs (ML-DSA-65) and
 * node:crypto (ECDSA), byte for byte the formats the browser's @noble and WebCrypto produce, at a
 * fraction of their cost, so that one driver can keep up with the server.
 * Protocol: load/login-protocol.ts.
 */
import { createPrivateKey, sign as signWithNode, type KeyObject } from 'node:crypto';
import { createInterface } from 'node:readline';
import { createMLDSA65 } from '@oqs/liboqs-js/sig';
import { bytesToNumbers, numbersToBytes, utf8Encode } from '../../../shared/crypto/bytes.js';
import { createKeyFile } from '../../../shared/crypto/key-file.js';
import { publicPart, type KeyFile } from '../../../shared/crypto/key-file-schema.js';
import { Samples, distribution } from '../stats.js';
import { LoginRequestSchema, type LoginRequest, type LoginRunResult } from './login-protocol.js';

interface PreparedLogin {
  keyId: string;
  body: string;
}

let baseUrl = '';
let keys: KeyFile[] = [];
let nextKey = 0;
let prepared: PreparedLogin[] = [];
const mlDsa = await createMLDSA65();
const ecdsaKeys = new Map<string, KeyObject>();

/** Most times one verification is sent again after a 503. */
const MAX_BUSY_RETRIES = 30;

/** Epoch milliseconds with fractions, comparable with the bench process's clock. */
const epochNow = () => performance.timeOrigin + performance.now();

async function postJson(path: string, body: string): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return { status: response.status, json: await response.json() };
}

function challengeOf(json: unknown): string | null {
  if (typeof json !== 'object' || json === null || !('challenge' in json)) return null;
  return typeof json.challenge === 'string' ? json.challenge : null;
}

/** Opens an admin session (the same call as tests/support/keys.ts, without its imports). */
async function adminToken(password: string): Promise<string> {
  const answer = await postJson('/api/admin/authenticate', JSON.stringify({ password }));
  const json = answer.json;
  if (
    answer.status !== 200 ||
    typeof json !== 'object' ||
    json === null ||
    !('sessionToken' in json)
  )
    throw new Error(`admin authenticate: ${answer.status}`);
  if (typeof json.sessionToken !== 'string') throw new Error('admin authenticate: no token');
  return json.sessionToken;
}

async function setup(url: string, adminPassword: string, count: number) {
  baseUrl = url;
  const keygenStart = performance.now();
  keys = [];
  for (let i = 0; i < count; i += 1) {
    keys.push(await createKeyFile({ username: `bench-${i + 1}`, level: 'user' }));
  }
  const keygenMs = performance.now() - keygenStart;
  const registerStart = performance.now();
  const token = await adminToken(adminPassword);
  for (const key of keys) {
    const response = await fetch(`${baseUrl}/api/keys/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(publicPart(key)),
    });
    if (!response.ok) throw new Error(`register: ${response.status} ${await response.text()}`);
  }
  return { keygenMs, registerMs: performance.now() - registerStart };
}

/** Runs `total` jobs, `concurrency` at a time. */
async function pool(total: number, concurrency: number, job: (index: number) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < total) await job(next++);
  };
  await Promise.all(Array.from({ length: Math.min(total, concurrency) }, worker));
}

interface Timings {
  startedAt: number;
  challengesDoneAt: number;
  challenge: Samples;
  sign: Samples;
  verify: Samples;
  total: Samples;
  ok: number;
  /** 503 answers of the login queue (each followed by a retry after Retry-After). */
  busy: number;
  failures: string[];
}

function newTimings(): Timings {
  const samples = () => new Samples();
  return {
    startedAt: epochNow(),
    challengesDoneAt: 0,
    challenge: samples(),
    sign: samples(),
    verify: samples(),
    total: samples(),
    ok: 0,
    busy: 0,
    failures: [],
  };
}

function summarize(timings: Timings): LoginRunResult {
  const endedAt = epochNow();
  return {
    startedAt: timings.startedAt,
    challengesDoneAt: timings.challengesDoneAt,
    endedAt,
    wallMs: endedAt - timings.startedAt,
    ok: timings.ok,
    busy: timings.busy,
    failed: timings.failures.length,
    failures: timings.failures.slice(0, 5),
    challengeMs: distribution(timings.challenge.values()),
    signMs: distribution(timings.sign.values()),
    verifyMs: distribution(timings.verify.values()),
    totalMs: distribution(timings.total.values()),
  };
}

interface Challenged {
  key: KeyFile;
  challenge: string;
}

/** Asks for a challenge; null when refused (the failure is recorded). */
async function requestChallenge(timings: Timings): Promise<Challenged | null> {
  const key = keys[nextKey++ % keys.length]!;
  const begin = performance.now();
  const answer = await postJson('/api/auth/challenge', JSON.stringify({ keyId: key.keyId }));
  timings.challenge.push(performance.now() - begin);
  timings.challengesDoneAt = epochNow();
  const challenge = challengeOf(answer.json);
  if (answer.status !== 200 || challenge === null) {
    timings.failures.push(`challenge ${answer.status} ${JSON.stringify(answer.json)}`);
    return null;
  }
  return { key, challenge };
}

/**
 * Signing is CPU work on one core, so it is done one challenge at a time: the time recorded is
 * then the signing itself, not signing plus waiting for other logins' signing.
 */
let signing: Promise<unknown> = Promise.resolve();

function sign(challenged: Challenged, timings: Timings): Promise<PreparedLogin> {
  const signed = signing.then(async () => {
    const begin = performance.now();
    const signatures = signFast(challenged.key, challenged.challenge);
    timings.sign.push(performance.now() - begin);
    return {
      keyId: challenged.key.keyId,
      body: JSON.stringify({
        keyId: challenged.key.keyId,
        challenge: challenged.challenge,
        dilithiumSignature: bytesToNumbers(signatures.dilithiumSignature),
        ecdsaSignature: bytesToNumbers(signatures.ecdsaSignature),
      }),
    };
  });
  signing = signed.catch(() => undefined);
  return signed;
}

/** ML-DSA-65 and ECDSA P-256 (raw r ‖ s) signatures of a challenge, as the browser makes them. */
function signFast(key: KeyFile, challenge: string) {
  const message = utf8Encode(challenge);
  let ecdsaKey = ecdsaKeys.get(key.keyId);
  if (!ecdsaKey) {
    ecdsaKey = createPrivateKey({
      key: Buffer.from(numbersToBytes(key.ecdsaPrivateKey ?? [])),
      format: 'der',
      type: 'pkcs8',
    });
    ecdsaKeys.set(key.keyId, ecdsaKey);
  }
  return {
    dilithiumSignature: mlDsa.sign(message, numbersToBytes(key.dilithiumPrivateKey ?? [])),
    ecdsaSignature: new Uint8Array(
      signWithNode('sha256', message, { key: ecdsaKey, dsaEncoding: 'ieee-p1363' }),
    ),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends a verification; after a 503 waits its Retry-After and sends it again, as the client does. */
async function verify(login: PreparedLogin, timings: Timings): Promise<void> {
  const begin = performance.now();
  for (let attempt = 0; ; attempt += 1) {
    const response = await fetch(`${baseUrl}/api/auth/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: login.body,
    });
    const json: unknown = await response.json();
    if (response.status === 503 && attempt < MAX_BUSY_RETRIES) {
      timings.busy += 1;
      // Retry-After and up to a second more, as the client waits.
      await sleep(Number(response.headers.get('retry-after') ?? '1') * 1000 + Math.random() * 1000);
      continue;
    }
    timings.verify.push(performance.now() - begin);
    if (response.status === 200) timings.ok += 1;
    else timings.failures.push(`verify ${response.status} ${JSON.stringify(json)}`);
    return;
  }
}

/** One whole login: challenge, sign, verify. */
async function wholeLogin(timings: Timings): Promise<void> {
  const begin = performance.now();
  const challenged = await requestChallenge(timings);
  if (!challenged) return;
  await verify(await sign(challenged, timings), timings);
  timings.total.push(performance.now() - begin);
}

async function handle(request: LoginRequest): Promise<unknown> {
  switch (request.cmd) {
    case 'setup':
      return setup(request.baseUrl, request.adminPassword, request.keys);
    case 'logins': {
      const timings = newTimings();
      await pool(request.logins, request.concurrency, () => wholeLogin(timings));
      return summarize(timings);
    }
    case 'steady': {
      // Whole logins started on a fixed schedule, whatever the answers take: arrivals at `rate`.
      const timings = newTimings();
      const start = performance.now();
      const total = Math.round((request.rate * request.durationMs) / 1000);
      const running: Promise<void>[] = [];
      for (let index = 0; index < total; index += 1) {
        const due = start + (index * 1000) / request.rate;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        running.push(wholeLogin(timings));
      }
      await Promise.all(running);
      return summarize(timings);
    }
    case 'prepare': {
      // All challenges first, then all signing: the server sees a burst of challenge requests
      // that is not stretched by the driver's signing.
      const timings = newTimings();
      const challenged: Challenged[] = [];
      await pool(request.logins, request.concurrency, async () => {
        const answer = await requestChallenge(timings);
        if (answer) challenged.push(answer);
      });
      prepared = [];
      for (const each of challenged) prepared.push(await sign(each, timings));
      return summarize(timings);
    }
    case 'verifyPrepared': {
      const timings = newTimings();
      const batch = prepared;
      prepared = [];
      await pool(batch.length, request.concurrency, (index) => verify(batch[index]!, timings));
      return summarize(timings);
    }
  }
}

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const request = LoginRequestSchema.parse(JSON.parse(line));
  handle(request)
    .then((result) =>
      process.stdout.write(`${JSON.stringify({ id: request.id, ok: true, result })}\n`),
    )
    .catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      process.stdout.write(`${JSON.stringify({ id: request.id, ok: false, error: message })}\n`);
    });
});
lines.on('close', () => process.exit(0));
