/**
 * The key login over the chat socket (client/features/auth/socket-login.ts) against a scripted
 * fake server: the frames it sends (signatures as base64 that verify against the key), the
 * spec's failure texts for each way it can fail, the full queue's wait and retry of the same
 * frame, and the hand-over of the socket to the chat (lib/realtime/socket-handoff.ts) with the
 * frames that arrived while it waited. A failed login leaves no socket behind.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LoginError } from '../../../client/features/auth/auth-api.js';
import { LOGIN_BUSY_RETRIES, loginWithKeyFile } from '../../../client/features/auth/key-login.js';
import { LoginChannel, SocketLoginLost } from '../../../client/features/auth/socket-login.js';
import { ChatSocket, type WebSocketLike } from '../../../client/lib/realtime/chat-socket.js';
import { dropParkedSocket, takeParkedSocket } from '../../../client/lib/realtime/socket-handoff.js';
import { PARKED_SOCKET_MS, parkSocket } from '../../../client/lib/realtime/socket-parking.js';
import { base64ToBytes } from '../../../shared/crypto/bytes.js';
import { createKeyFile, verifyChallengeSignatures } from '../../../shared/crypto/key-file.js';
import { publicPart, type KeyFile } from '../../../shared/crypto/key-file-schema.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import { ServerFrameSchema } from '../../../shared/protocol/ws/server-frames.js';

const URL_ = 'ws://chat.test/chat-ws';
const CHALLENGE = 'securechannel-login:test:1:abcd';

type Frame = Record<string, unknown>;
type Serve = (frame: Frame, socket: FakeSocket) => void;

class FakeSocket implements WebSocketLike {
  readyState = 0;
  readonly sent: Frame[] = [];
  closedWith: number | null = null;
  onopen: (() => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onerror: (() => void) | null = null;

  constructor(private readonly serve: Serve) {}

  send(data: string): void {
    const frame = JSON.parse(data) as Frame;
    this.sent.push(frame);
    queueMicrotask(() => this.serve(frame, this));
  }
  close(code = 1000): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.closedWith = code;
    this.onclose?.({ code });
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.();
  }
  deliver(frame: Frame): void {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
}

const session = (keyFile: KeyFile) => ({
  type: 'login_session',
  sessionToken: 't'.repeat(64),
  expiresAt: new Date(86_400_000).toISOString(),
  user: {
    keyId: keyFile.keyId,
    username: 'socketeer',
    secureId: `SCK_${keyFile.keyId.slice(3, 11).toUpperCase()}`,
    permissions: { level: 'user', capabilities: ['chat'] },
    expires: null,
  },
});
const issued = {
  type: 'login_challenge_issued',
  challenge: CHALLENGE,
  nonce: 'abcd',
  timestamp: new Date(0).toISOString(),
  expiresAt: new Date(120_000).toISOString(),
};

/** A server that answers the challenge, then each verification with the next of `verifies`. */
function server(keyFile: KeyFile, verifies: Array<(socket: FakeSocket) => void>) {
  const sockets: FakeSocket[] = [];
  const openSocket = () =>
    LoginChannel.open(URL_, () => {
      const socket = new FakeSocket((frame, self) => {
        if (frame.type === 'login_challenge') return self.deliver(issued);
        if (frame.type !== 'login_verify') return;
        const next = verifies.shift();
        if (!next) throw new Error('unexpected verification');
        next(self);
      });
      sockets.push(socket);
      queueMicrotask(() => socket.open());
      return socket;
    });
  return { sockets, openSocket };
}

let keyFile: KeyFile;
beforeAll(async () => {
  keyFile = await createKeyFile({ username: 'socketeer', level: 'user', validityDays: 1 });
});
afterEach(() => {
  dropParkedSocket();
  vi.useRealTimers();
});

const fail = (options: Parameters<typeof loginWithKeyFile>[1]) =>
  loginWithKeyFile(keyFile, { sleep: () => Promise.resolve(), ...options }).then(
    () => {
      throw new Error('the login succeeded');
    },
    (error: unknown) => error as LoginError,
  );

describe('key login over the chat socket', () => {
  it('sends both signatures as base64 that verify, and hands the open socket to the chat with what arrived meanwhile', async () => {
    const { sockets, openSocket } = server(keyFile, [
      (socket) => {
        // A service notice sent to every socket while the login runs: the chat's business.
        socket.deliver({
          type: 'system_broadcast',
          message: 'maintenance at noon',
          level: 'info',
          timestamp: new Date(0).toISOString(),
        });
        socket.deliver(session(keyFile));
      },
    ]);
    const result = await loginWithKeyFile(keyFile, { openSocket });
    expect(result.sessionToken).toBe('t'.repeat(64));

    const [socket] = sockets;
    expect(socket!.sent.map((frame) => frame.type)).toEqual(['login_challenge', 'login_verify']);
    const verify = socket!.sent[1]!;
    expect(verify).toMatchObject({ keyId: keyFile.keyId, challenge: CHALLENGE });
    const dilithiumSignature = base64ToBytes(verify.dilithiumSignature as string);
    const ecdsaSignature = base64ToBytes(verify.ecdsaSignature as string);
    expect([dilithiumSignature.length, ecdsaSignature.length]).toEqual([3309, 64]);
    const key = publicPart(keyFile);
    expect(
      await verifyChallengeSignatures({
        challenge: CHALLENGE,
        dilithiumSignature,
        ecdsaSignature,
        dilithiumPublicKey: key.dilithiumPublicKey,
        ecdsaPublicKey: key.ecdsaPublicKey,
      }),
    ).toBe(true);
    expect(socket!.closedWith).toBeNull();

    // The chat's first connection takes it: connected at once, no socket of its own.
    const createSocket = vi.fn(() => new FakeSocket(() => undefined));
    const chat = new ChatSocket({ url: URL_, createSocket, frameSchema: ServerFrameSchema });
    const broadcasts: string[] = [];
    chat.on('system_broadcast', (frame) => broadcasts.push(frame.message));
    chat.reconnect();
    expect(chat.getStatus()).toBe('connected');
    expect(createSocket).not.toHaveBeenCalled();
    expect(broadcasts).toEqual(['maintenance at noon']);
    // And it is the chat's: what it sends goes out on the login's socket.
    expect(chat.send({ type: 'typing_start' })).toBe(true);
    expect(socket!.sent.at(-1)).toEqual({ type: 'typing_start' });
    chat.stop();
    expect(socket!.closedWith).toBe(1000);
  });

  it('waits as the full queue asks and sends the same frame again', async () => {
    const busy = (socket: FakeSocket) =>
      socket.deliver({
        type: 'error',
        message: TEXT.loginBusy,
        frameType: 'login_verify',
        retryAfterSeconds: 3,
      });
    const { sockets, openSocket } = server(keyFile, [
      busy,
      busy,
      (socket) => socket.deliver(session(keyFile)),
    ]);
    const told: Array<[number, number]> = [];
    const waited: number[] = [];
    await loginWithKeyFile(keyFile, {
      openSocket,
      onBusy: (seconds, triesLeft) => told.push([seconds, triesLeft]),
      sleep: (ms) => {
        waited.push(ms);
        return Promise.resolve();
      },
    });
    expect(told).toEqual([
      [3, LOGIN_BUSY_RETRIES - 1],
      [3, LOGIN_BUSY_RETRIES - 2],
    ]);
    for (const ms of waited) expect(ms).toBeGreaterThanOrEqual(3000);
    const verifies = sockets[0]!.sent.filter((frame) => frame.type === 'login_verify');
    expect(verifies).toHaveLength(3);
    expect(new Set(verifies.map((frame) => JSON.stringify(frame))).size).toBe(1);
  });

  it('words each failure as spec 000 §5 does and leaves no socket behind', async () => {
    // The challenge refused: the spec's text whatever the server said.
    const refusedChallenge = {
      sockets: [] as FakeSocket[],
      openSocket: () =>
        LoginChannel.open(URL_, () => {
          const socket = new FakeSocket((_frame, self) =>
            self.deliver({ type: 'error', message: TEXT.keyNotRegistered }),
          );
          refusedChallenge.sockets.push(socket);
          queueMicrotask(() => socket.open());
          return socket;
        }),
    };
    const challengeError = await fail({ openSocket: refusedChallenge.openSocket });
    expect([challengeError.message, challengeError.step]).toEqual([
      TEXT.challengeFailed,
      'challenge',
    ]);
    expect(refusedChallenge.sockets[0]!.closedWith).toBe(1000);

    // The server's own text for a refused verification.
    const said = server(keyFile, [
      (socket) =>
        socket.deliver({
          type: 'error',
          message: TEXT.signatureInvalid,
          frameType: 'login_verify',
        }),
    ]);
    const saidError = await fail({ openSocket: said.openSocket });
    expect([saidError.message, saidError.isServerText]).toEqual([TEXT.signatureInvalid, true]);
    expect(said.sockets[0]!.closedWith).toBe(1000);

    // The connection lost during the verification: no server text.
    const lost = server(keyFile, [(socket) => socket.close(1006)]);
    const lostError = await fail({ openSocket: lost.openSocket });
    expect([lostError.message, lostError.isServerText]).toEqual([TEXT.verificationFailed, false]);

    // A session frame without a token.
    const tokenless = server(keyFile, [
      (socket) => socket.deliver({ ...session(keyFile), sessionToken: undefined }),
    ]);
    const tokenlessError = await fail({ openSocket: tokenless.openSocket });
    expect([tokenlessError.message, tokenlessError.step]).toEqual([TEXT.noSessionToken, 'session']);

    // None of them parked a socket for the chat.
    expect(takeParkedSocket(URL_)).toBeNull();
  });

  it('gives up on a socket that does not open, or an answer that does not come', async () => {
    vi.useFakeTimers();
    const silent = new FakeSocket(() => undefined);
    const opening = LoginChannel.open(URL_, () => silent, 1000);
    const opened = expect(opening).rejects.toBeInstanceOf(SocketLoginLost);
    await vi.advanceTimersByTimeAsync(1000);
    await opened;
    expect(silent.closedWith).toBe(1000);

    const refused = new FakeSocket(() => undefined);
    const closing = LoginChannel.open(URL_, () => refused);
    refused.close(1006);
    await expect(closing).rejects.toBeInstanceOf(SocketLoginLost);

    const mute = new FakeSocket(() => undefined);
    const channelOpening = LoginChannel.open(URL_, () => mute);
    mute.open();
    const channel = await channelOpening;
    const asked = expect(
      channel.ask({ type: 'login_challenge', keyId: keyFile.keyId }, 'login_challenge_issued', 500),
    ).rejects.toBeInstanceOf(SocketLoginLost);
    await vi.advanceTimersByTimeAsync(500);
    await asked;
    channel.close();
    expect(mute.closedWith).toBe(1000);
  });
});

describe('the parked socket', () => {
  const openSocket = () => {
    const socket = new FakeSocket(() => undefined);
    socket.open();
    return socket;
  };

  it('is closed when nobody takes it in time, and is taken only for its own address', () => {
    vi.useFakeTimers();
    const socket = openSocket();
    parkSocket(URL_, socket);
    expect(takeParkedSocket('ws://elsewhere.test/chat-ws')).toBeNull();
    vi.advanceTimersByTime(PARKED_SOCKET_MS);
    expect(socket.closedWith).toBe(1000);
    expect(takeParkedSocket(URL_)).toBeNull();
  });

  it('is not handed over once closed, and a newer one closes the older', () => {
    const first = openSocket();
    parkSocket(URL_, first);
    const second = openSocket();
    parkSocket(URL_, second);
    expect(first.closedWith).toBe(1000);
    second.close(1001);
    expect(takeParkedSocket(URL_)).toBeNull();

    const third = openSocket();
    parkSocket(URL_, third, ['{"type":"x"}']);
    third.deliver({ type: 'y' });
    expect(takeParkedSocket(URL_)).toEqual({
      socket: third,
      received: ['{"type":"x"}', '{"type":"y"}'],
    });
    expect(takeParkedSocket(URL_)).toBeNull();
  });
});
