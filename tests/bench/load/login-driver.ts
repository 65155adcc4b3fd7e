/**
 * The login driver: a child process of the bench that does everything a logging-in browser does
 * (ask for a challenge, sign it with ML-DSA-65 and ECDSA P-256, send the signatures, wait and send
 * again when the server says its login queue is full), so that the signing CPU and the login
 * traffic stay out of the event loop that measures chat latency. The bench runs it pinned to the
 * load generator's CPU, ten nice steps below the generator. It signs with liboqs (ML-DSA-65) and
 * node:crypto (ECDSA), byte for byte the formats the browser's @noble and WebCrypto produce, at a
 * fraction of their cost, so that one driver can keep up with the server.
 *
 * Two ways to the server (a command's `transport`):
 * - `socket`: the `login_challenge` and `login_verify` frames on `/chat-ws` sockets opened
 *   beforehand (`openSockets`), as the client logs in on the chat socket it already holds. A login
 *   takes an idle socket (the least recently used), sends its frames one after the other and gives
 *   it back: one login at a time per socket, since a socket's frames are answered in order. The
 *   signatures travel as base64; a refusal with `retryAfterSeconds` is sent again after it, as the
 *   client does. The sockets come from loopback source addresses of their own, 127.1.0.2,
 *   127.1.0.3, … (the bench's chat members use 127.0.x.x, load/clients.ts), `perAddress` each and
 *   fresh addresses for every `openSockets`, so that neither the per-address socket cap nor the
 *   per-address count of upgrades is reached.
 * - `http`: `POST /api/auth/challenge` and `POST /api/auth/verify` (the signatures as arrays of
 *   numbers), a 503 sent again after its Retry-After.
 * Protocol: load/login-protocol.ts.
 */
import { createPrivateKey, sign as signWithNode, type KeyObject } from 'node:crypto';
import { createInterface } from 'node:readline';
import { createMLDSA65 } from '@oqs/liboqs-js/sig';
import { bytesToNumbers, numbersToBytes, utf8Encode } from '../../../shared/crypto/bytes.js';
import { createKeyFile } from '../../../shared/crypto/key-file.js';
import { publicPart, type KeyFile } from '../../../shared/crypto/key-file-schema.js';
import { WS_ERROR } from '../../../shared/protocol/errors.js';
import { Samples, distribution } from '../stats.js';
import { BenchClient, closeAll } from './clients.js';
import {
  LoginRequestSchema,
  type LoginRequest,
  type LoginRunResult,
  type LoginTransport,
} from './login-protocol.js';

interface PreparedLogin {
  keyId: string;
  challenge: string;
  dilithiumSignature: Uint8Array;
  ecdsaSignature: Uint8Array;
  /**
   * The verification as each transport sends it, made when signed for the transport the
   * challenge came by (and on demand for the other): serializing 3,309 numbers is not free.
   */
  bodies: Partial<Record<LoginTransport, string>>;
}

let baseUrl = '';
let keys: KeyFile[] = [];
let nextKey = 0;
let prepared: PreparedLogin[] = [];
const mlDsa = await createMLDSA65();
const ecdsaKeys = new Map<string, KeyObject>();

/** Most times one verification is sent again after a busy refusal. */
const MAX_BUSY_RETRIES = 30;
/** Longest wait for a socket's answer to one frame. */
const FRAME_ANSWER_TIMEOUT_MS = 60_000;
/** Sockets connecting at once in `openSockets`. */
const OPEN_CONCURRENCY = 50;

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
  transport: LoginTransport;
  startedAt: number;
  challengesDoneAt: number;
  challenge: Samples;
  sign: Samples;
  verify: Samples;
  total: Samples;
  ok: number;
  /** Busy refusals of the login queue (each followed by a retry after Retry-After). */
  busy: number;
  /** Frames the hub dropped for the socket's frame rate ("rate limited" error frames). */
  rateLimited: number;
  failures: string[];
}

function newTimings(transport: LoginTransport): Timings {
  const samples = () => new Samples();
  return {
    transport,
    startedAt: epochNow(),
    challengesDoneAt: 0,
    challenge: samples(),
    sign: samples(),
    verify: samples(),
    total: samples(),
    ok: 0,
    busy: 0,
    rateLimited: 0,
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
    transport: timings.transport,
    ok: timings.ok,
    busy: timings.busy,
    rateLimited: timings.rateLimited,
    failed: timings.failures.length,
    failures: timings.failures.slice(0, 5),
    challengeMs: distribution(timings.challenge.values()),
    signMs: distribution(timings.sign.values()),
    verifyMs: distribution(timings.verify.values()),
    totalMs: distribution(timings.total.values()),
  };
}

/** A server frame, as far as the driver reads it. */
interface ServerFrame {
  type: string;
  [field: string]: unknown;
}

const isServerFrame = (value: unknown): value is ServerFrame =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { type?: unknown }).type === 'string';

/** An open `/chat-ws` socket of the `socket` transport: one frame in flight, its answer awaited. */
class LoginSocket {
  /** "rate limited" error frames over the socket's life. */
  rateLimited = 0;
  private waiter: ((frame: ServerFrame) => void) | null = null;

  constructor(readonly client: BenchClient) {
    client.onFrame = (text) => this.receive(text);
    client.socket.once('close', (code: number) =>
      this.waiter?.({ type: 'error', message: `socket closed (${code})` }),
    );
  }

  /**
   * Sends `text` and resolves with the next `answerType` or `error` frame (a closed socket or no
   * answer in time resolves with an error of the driver's own).
   */
  exchange(text: string, answerType: string): Promise<ServerFrame> {
    if (!this.client.isOpen) {
      return Promise.resolve({ type: 'error', message: 'socket not open' });
    }
    return new Promise((resolve) => {
      const finish = (frame: ServerFrame) => {
        clearTimeout(timer);
        this.waiter = null;
        resolve(frame);
      };
      const timer = setTimeout(
        () =>
          finish({ type: 'error', message: `no ${answerType} in ${FRAME_ANSWER_TIMEOUT_MS} ms` }),
        FRAME_ANSWER_TIMEOUT_MS,
      );
      this.waiter = (frame) => {
        if (frame.type === answerType || frame.type === 'error') finish(frame);
      };
      this.client.send(text);
    });
  }

  private receive(text: string): void {
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    if (!isServerFrame(frame)) return;
    if (isRateLimited(frame)) this.rateLimited += 1;
    this.waiter?.(frame);
  }
}

/** The hub's answer to a frame past the socket's rate: the frame was dropped. */
const isRateLimited = (frame: ServerFrame) =>
  frame.type === 'error' && frame.frameType === undefined && frame.message === WS_ERROR.rateLimited;

/** Every socket `openSockets` opened, and those idle now, least recently used first. */
let sockets: LoginSocket[] = [];
let idleSockets: LoginSocket[] = [];
const socketWaiters: ((socket: LoginSocket) => void)[] = [];
/** The next source address's number (see driverAddress). */
let nextHost = 2;

/** Loopback source address number `host` of the driver's own range, 127.1.0.0/16. */
function driverAddress(host: number): string {
  if (host >= 256 * 256) throw new Error('too many sockets for 127.1.0.0/16 source addresses');
  return `127.1.${Math.floor(host / 256)}.${host % 256}`;
}

async function openSockets(wsUrl: string, count: number, perAddress: number) {
  const begin = performance.now();
  const firstHost = nextHost;
  const hosts = Math.ceil(count / perAddress);
  nextHost += hosts;
  const addresses = Array.from({ length: hosts }, (_, index) => driverAddress(firstHost + index));
  await pool(count, OPEN_CONCURRENCY, async (index) => {
    const client = await BenchClient.connect(wsUrl, addresses[Math.floor(index / perAddress)]!);
    const socket = new LoginSocket(client);
    sockets.push(socket);
    giveBack(socket);
  });
  return { open: sockets.length, addresses, wallMs: performance.now() - begin };
}

async function closeSockets() {
  const closing = sockets;
  sockets = [];
  idleSockets = [];
  await closeAll(closing.map((socket) => socket.client));
  return {
    closed: closing.length,
    rateLimited: closing.reduce((sum, socket) => sum + socket.rateLimited, 0),
  };
}

/** The least recently used idle socket, or the next one given back. */
function takeSocket(): Promise<LoginSocket> {
  const socket = idleSockets.shift();
  if (socket) return Promise.resolve(socket);
  if (sockets.length === 0) return Promise.reject(new Error('no sockets open (openSockets first)'));
  return new Promise((resolve) => socketWaiters.push(resolve));
}

function giveBack(socket: LoginSocket): void {
  const waiter = socketWaiters.shift();
  if (waiter) waiter(socket);
  else idleSockets.push(socket);
}

/** Where one login's requests go: HTTP, or the socket it holds for the whole of it. */
type Channel = { transport: 'http' } | { transport: 'socket'; socket: LoginSocket };

/** Runs `job` on a channel of `transport`: for `socket`, a socket held until it is done. */
async function withChannel<T>(
  transport: LoginTransport,
  job: (channel: Channel) => Promise<T>,
): Promise<T> {
  if (transport === 'http') return job({ transport });
  const socket = await takeSocket();
  try {
    return await job({ transport, socket });
  } finally {
    giveBack(socket);
  }
}

/** A frame's text for a failure description. */
const describeFrame = (frame: ServerFrame) => JSON.stringify(frame).slice(0, 300);

interface Challenged {
  key: KeyFile;
  challenge: string;
}

/** Asks for a challenge; null when refused (the failure is recorded). */
async function requestChallenge(timings: Timings, channel: Channel): Promise<Challenged | null> {
  const key = keys[nextKey++ % keys.length]!;
  const begin = performance.now();
  let challenge: string | null;
  let failure = '';
  if (channel.transport === 'http') {
    const answer = await postJson('/api/auth/challenge', JSON.stringify({ keyId: key.keyId }));
    challenge = answer.status === 200 ? challengeOf(answer.json) : null;
    if (challenge === null) failure = `challenge ${answer.status} ${JSON.stringify(answer.json)}`;
  } else {
    const answer = await channel.socket.exchange(
      JSON.stringify({ type: 'login_challenge', keyId: key.keyId }),
      'login_challenge_issued',
    );
    if (isRateLimited(answer)) timings.rateLimited += 1;
    challenge = answer.type === 'login_challenge_issued' ? challengeOf(answer) : null;
    if (challenge === null) failure = `login_challenge: ${describeFrame(answer)}`;
  }
  timings.challenge.push(performance.now() - begin);
  timings.challengesDoneAt = epochNow();
  if (challenge === null) {
    timings.failures.push(failure);
    return null;
  }
  return { key, challenge };
}

/** The verification as `transport` sends it: numbers for the route, base64 on the socket. */
function bodyFor(login: PreparedLogin, transport: LoginTransport): string {
  const made = login.bodies[transport];
  if (made !== undefined) return made;
  const body =
    transport === 'http'
      ? JSON.stringify({
          keyId: login.keyId,
          challenge: login.challenge,
          dilithiumSignature: bytesToNumbers(login.dilithiumSignature),
          ecdsaSignature: bytesToNumbers(login.ecdsaSignature),
        })
      : JSON.stringify({
          type: 'login_verify',
          keyId: login.keyId,
          challenge: login.challenge,
          dilithiumSignature: Buffer.from(login.dilithiumSignature).toString('base64'),
          ecdsaSignature: Buffer.from(login.ecdsaSignature).toString('base64'),
        });
  login.bodies[transport] = body;
  return body;
}

/**
 * Signing is CPU work on one core, so it is done one challenge at a time: the time recorded is
 * then the signing itself, not signing plus waiting for other logins' signing.
 */
let signing: Promise<unknown> = Promise.resolve();

function sign(challenged: Challenged, timings: Timings): Promise<PreparedLogin> {
  const signed = signing.then(() => {
    const begin = performance.now();
    const signatures = signFast(challenged.key, challenged.challenge);
    timings.sign.push(performance.now() - begin);
    const login: PreparedLogin = {
      keyId: challenged.key.keyId,
      challenge: challenged.challenge,
      ...signatures,
      bodies: {},
    };
    bodyFor(login, timings.transport);
    return login;
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

/** Retry-After and up to a second more, as the client waits. */
const busyWait = (retryAfterSeconds: number) =>
  sleep(retryAfterSeconds * 1000 + Math.random() * 1000);

/** One attempt at a verification: its outcome, and the wait asked for when the queue was full. */
type VerifyOutcome =
  { ok: true } | { ok: false; retryAfterSeconds: number | null; failure: string };

async function verifyOnce(
  login: PreparedLogin,
  timings: Timings,
  channel: Channel,
): Promise<VerifyOutcome> {
  if (channel.transport === 'http') {
    const response = await fetch(`${baseUrl}/api/auth/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: bodyFor(login, 'http'),
    });
    const json: unknown = await response.json();
    if (response.status === 200) return { ok: true };
    return {
      ok: false,
      retryAfterSeconds:
        response.status === 503 ? Number(response.headers.get('retry-after') ?? '1') : null,
      failure: `verify ${response.status} ${JSON.stringify(json)}`,
    };
  }
  const answer = await channel.socket.exchange(bodyFor(login, 'socket'), 'login_session');
  if (answer.type === 'login_session') return { ok: true };
  if (isRateLimited(answer)) timings.rateLimited += 1;
  return {
    ok: false,
    retryAfterSeconds:
      typeof answer.retryAfterSeconds === 'number' ? answer.retryAfterSeconds : null,
    failure: `login_verify: ${describeFrame(answer)}`,
  };
}

/**
 * Sends a verification; when the login queue is full (503, or an error frame with
 * retryAfterSeconds) waits its Retry-After and sends it again, as the client does.
 */
async function verify(login: PreparedLogin, timings: Timings, channel: Channel): Promise<void> {
  const begin = performance.now();
  for (let attempt = 0; ; attempt += 1) {
    const outcome = await verifyOnce(login, timings, channel);
    if (!outcome.ok && outcome.retryAfterSeconds !== null && attempt < MAX_BUSY_RETRIES) {
      timings.busy += 1;
      await busyWait(outcome.retryAfterSeconds);
      continue;
    }
    timings.verify.push(performance.now() - begin);
    if (outcome.ok) timings.ok += 1;
    else timings.failures.push(outcome.failure);
    return;
  }
}

/** One whole login: challenge, sign, verify (on a socket, the same socket throughout). */
function wholeLogin(timings: Timings): Promise<void> {
  return withChannel(timings.transport, async (channel) => {
    const begin = performance.now();
    const challenged = await requestChallenge(timings, channel);
    if (!challenged) return;
    await verify(await sign(challenged, timings), timings, channel);
    timings.total.push(performance.now() - begin);
  });
}

async function handle(request: LoginRequest): Promise<unknown> {
  switch (request.cmd) {
    case 'setup':
      return setup(request.baseUrl, request.adminPassword, request.keys);
    case 'openSockets':
      return openSockets(request.wsUrl, request.count, request.perAddress);
    case 'closeSockets':
      return closeSockets();
    case 'logins': {
      const timings = newTimings(request.transport);
      await pool(request.logins, request.concurrency, () => wholeLogin(timings));
      return summarize(timings);
    }
    case 'steady': {
      // Whole logins started on a fixed schedule, whatever the answers take: arrivals at `rate`.
      const timings = newTimings(request.transport);
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
      const timings = newTimings(request.transport);
      const challenged: Challenged[] = [];
      await pool(request.logins, request.concurrency, async () => {
        const answer = await withChannel(request.transport, (channel) =>
          requestChallenge(timings, channel),
        );
        if (answer) challenged.push(answer);
      });
      prepared = [];
      for (const each of challenged) prepared.push(await sign(each, timings));
      return summarize(timings);
    }
    case 'verifyPrepared': {
      const timings = newTimings(request.transport);
      const batch = prepared;
      prepared = [];
      // Any socket may carry a verification: a challenge is bound to its key, not to a socket.
      await pool(batch.length, request.concurrency, (index) =>
        withChannel(request.transport, (channel) => verify(batch[index]!, timings, channel)),
      );
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
