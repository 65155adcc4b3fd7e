/**
 * The chat socket's connection policy (spec 000 §4 "Chat connection", §7; issue 35): first
 * connect after 100 ms, reconnects without limit after a lost connection with jittered exponential
 * backoff (1 s × 2^attempt, capped at 30 s, reset by a connection that opens), none after a close
 * or frame that holds it (1000, shutdown 4001, revocation 4003, bot ban 4008, service notices, a
 * hold for removal or a destroyed room), a manual RECONNECT that starts over and lifts a hold, and
 * frames parsed before anyone sees them.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ChatSocket,
  chatSocketUrl,
  reconnectDelayMs,
  type ChatConnectionStatus,
  type FrameSchema,
  type WebSocketLike,
} from '../../../client/lib/realtime/chat-socket.js';
import { ServerFrameSchema } from '../../../shared/protocol/ws/server-frames.js';

class FakeSocket implements WebSocketLike {
  readyState = 0;
  readonly sent: string[] = [];
  closedWith: number | null = null;
  onopen: (() => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onerror: (() => void) | null = null;

  constructor(readonly url: string) {}

  send(data: string): void {
    this.sent.push(data);
  }
  close(code?: number): void {
    this.closedWith = code ?? 1005;
    this.readyState = 3;
  }
  /** The server accepts the connection. */
  accept(): void {
    this.readyState = 1;
    this.onopen?.();
  }
  /** The connection ends with `code` (a refused connection ends with 1006). */
  drop(code: number): void {
    this.readyState = 3;
    this.onclose?.({ code });
  }
  receive(data: unknown): void {
    this.onmessage?.({ data });
  }
}

/** A socket whose frame schema is `frameSchema` (default: already loaded). */
function setup(
  frameSchema: FrameSchema | Promise<FrameSchema> = ServerFrameSchema,
  random: () => number = () => 0.5,
) {
  const sockets: FakeSocket[] = [];
  const statuses: ChatConnectionStatus[] = [];
  const redirects: string[] = [];
  const chat = new ChatSocket({
    url: 'ws://example.test/chat-ws',
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    onServiceRedirect: (path) => redirects.push(path),
    frameSchema,
    random,
    now: () => Date.now(),
  });
  chat.onStatusChange((status) => statuses.push(status));
  const last = () => sockets[sockets.length - 1]!;
  return { chat, sockets, statuses, redirects, last };
}

const joined = JSON.stringify({
  type: 'room_joined',
  roomId: 'r1',
  nodeId: 'n1',
  messages: [],
  memberCount: 2,
  accessToken: 'grant',
});

describe('ChatSocket', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('opens the first connection 100 ms after start and reports connecting, then connected', () => {
    const { chat, sockets, last } = setup();
    chat.start();
    expect(chat.getStatus()).toBe('connecting');
    vi.advanceTimersByTime(99);
    expect(sockets).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(1);
    expect(last().url).toBe('ws://example.test/chat-ws');
    last().accept();
    expect(chat.getStatus()).toBe('connected');
  });

  it('retries without limit after a lost connection, waiting half of 1 s × 2^attempt (random 0.5), capped at 30 s', () => {
    const { chat, sockets, statuses, last } = setup();
    chat.start();
    vi.advanceTimersByTime(100);
    last().accept();

    last().drop(1006);
    expect(chat.getStatus()).toBe('disconnected');
    expect(chat.getLink()).toMatchObject({ attempt: 1, retryAt: Date.now() + 500, hold: null });
    vi.advanceTimersByTime(499);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    expect(chat.getLink()).toMatchObject({ status: 'connecting', attempt: 1, retryAt: null });

    // 1 s, 2 s, 4 s, 8 s, 15 s (half of the 30 s cap), 15 s, … and it never gives up.
    const waits = [1000, 2000, 4000, 8000, 15_000, 15_000, 15_000, 15_000];
    for (const wait of waits) {
      last().drop(1006);
      const before = sockets.length;
      vi.advanceTimersByTime(wait - 1);
      expect(sockets).toHaveLength(before);
      vi.advanceTimersByTime(1);
      expect(sockets).toHaveLength(before + 1);
    }
    expect(statuses.slice(0, 5)).toEqual([
      'connected',
      'disconnected',
      'connecting',
      'disconnected',
      'connecting',
    ]);
    last().accept();
    expect(chat.getLink()).toEqual({
      status: 'connected',
      retryAt: null,
      attempt: 0,
      hold: null,
    });
  });

  it('reconnects after the server goes away for a restart (1001)', () => {
    const { chat, sockets, last } = setup();
    chat.start();
    vi.advanceTimersByTime(100);
    last().accept();
    last().drop(1001);
    vi.advanceTimersByTime(500);
    expect(sockets).toHaveLength(2);
  });

  it.each([
    [1000, 'closed'],
    [4001, 'shutdown'],
    [4003, 'revoked'],
    [4008, 'banned'],
  ] as const)('does not reconnect after close %i, held as %s', (code, hold) => {
    const { chat, sockets, last } = setup();
    chat.start();
    vi.advanceTimersByTime(100);
    last().accept();
    last().drop(code);
    vi.advanceTimersByTime(120_000);
    expect(sockets).toHaveLength(1);
    expect(chat.getLink()).toEqual({ status: 'disconnected', retryAt: null, attempt: 0, hold });
  });

  it.each([
    [
      'emergency shutdown notice',
      { type: 'emergency_shutdown_notice', reason: 'r', timestamp: new Date(0).toISOString() },
    ],
    ['maintenance notice', { type: 'maintenance_mode', message: 'offline' }],
  ])('does not reconnect after a %s, even when the close says 1006', (_name, frame) => {
    const { chat, sockets, last } = setup();
    chat.start();
    vi.advanceTimersByTime(100);
    last().accept();
    last().receive(JSON.stringify(frame));
    last().drop(1006);
    vi.advanceTimersByTime(120_000);
    expect(sockets).toHaveLength(1);
    expect(chat.getLink().hold).toBe('shutdown');
  });

  it.each(['removed', 'destroyed'] as const)(
    'a hold (%s) cancels a planned try and stops later ones; release() lifts it and connects',
    (reason) => {
      const { chat, sockets, last } = setup();
      chat.start();
      vi.advanceTimersByTime(100);
      last().accept();
      chat.hold(reason);
      expect(chat.getStatus()).toBe('connected');
      last().drop(1006);
      vi.advanceTimersByTime(120_000);
      expect(sockets).toHaveLength(1);
      expect(chat.getLink()).toMatchObject({ status: 'disconnected', hold: reason, retryAt: null });

      chat.release();
      expect(sockets).toHaveLength(2);
      expect(chat.getLink().hold).toBeNull();
    },
  );

  it('gives a connection that opened a fresh count of tries', () => {
    const { chat, sockets, last } = setup();
    chat.start();
    vi.advanceTimersByTime(100);
    last().drop(1006);
    vi.advanceTimersByTime(500);
    last().drop(1006);
    vi.advanceTimersByTime(1000);
    last().accept();
    last().drop(4000);
    // The count started over: the next wait is 0.5 s again, not 2 s.
    vi.advanceTimersByTime(500);
    expect(sockets).toHaveLength(4);
  });

  it('RECONNECT connects at once, lifts a hold and starts the count over', () => {
    const { chat, sockets, last } = setup();
    chat.start();
    vi.advanceTimersByTime(100);
    last().accept();
    last().drop(4003);
    expect(chat.getLink().hold).toBe('revoked');

    chat.reconnect();
    expect(sockets).toHaveLength(2);
    expect(chat.getLink()).toMatchObject({ status: 'connecting', hold: null });
    last().drop(1006);
    vi.advanceTimersByTime(500);
    expect(sockets).toHaveLength(3);
  });

  it('RECONNECT during a wait cancels the pending retry and closes nothing twice', () => {
    const { chat, sockets, last } = setup();
    chat.start();
    vi.advanceTimersByTime(100);
    last().accept();
    last().drop(4000);
    chat.reconnect();
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(10_000);
    expect(sockets).toHaveLength(2);
  });

  it('hands parsed frames to the listeners of their type only', () => {
    const { chat, last } = setup();
    const joinedFrames: unknown[] = [];
    const errors: unknown[] = [];
    chat.on('room_joined', (frame) => joinedFrames.push(frame.memberCount));
    const off = chat.on('error', (frame) => errors.push(frame.message));
    chat.start();
    vi.advanceTimersByTime(100);
    last().accept();
    last().receive(joined);
    last().receive(JSON.stringify({ type: 'error', message: 'Access code required' }));
    off();
    last().receive(JSON.stringify({ type: 'error', message: 'again' }));
    expect(joinedFrames).toEqual([2]);
    expect(errors).toEqual(['Access code required']);
  });

  it('delivers user_joined and user_left to their own listeners', () => {
    const { chat, last } = setup();
    const seen: string[] = [];
    chat.on('user_joined', (frame) => seen.push(`+${frame.username}`));
    chat.on('user_left', (frame) => seen.push(`-${frame.username}`));
    chat.start();
    vi.advanceTimersByTime(100);
    last().accept();
    const presence = (type: string, username: string) =>
      JSON.stringify({ type, roomId: 'r', username, nodeId: 'n', memberCount: 1 });
    last().receive(presence('user_joined', 'Agent1'));
    last().receive(presence('user_left', 'Agent1'));
    expect(seen).toEqual(['+Agent1', '-Agent1']);
  });

  it('logs and ignores frames that do not parse, without logging their content', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { chat, last } = setup();
    const seen: unknown[] = [];
    chat.on('new_message', (frame) => seen.push(frame));
    chat.start();
    vi.advanceTimersByTime(100);
    last().accept();
    last().receive('{ not json: secret-words');
    last().receive(JSON.stringify({ type: 'new_message', message: { content: 'secret-words' } }));
    last().receive(JSON.stringify({ type: 'no_such_frame' }));
    last().receive(new ArrayBuffer(4));
    expect(seen).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(4);
    expect(JSON.stringify(warn.mock.calls)).not.toContain('secret-words');
    expect(chat.getStatus()).toBe('connected');
  });

  it('sends the service notices to their pages', () => {
    const { chat, redirects, last } = setup();
    chat.start();
    vi.advanceTimersByTime(100);
    last().accept();
    last().receive(
      JSON.stringify({
        type: 'emergency_shutdown_notice',
        reason: 'drill',
        timestamp: new Date().toISOString(),
      }),
    );
    last().receive(JSON.stringify({ type: 'maintenance_mode', message: 'offline' }));
    expect(redirects).toEqual(['/emergency-shutdown', '/maintenance-mode']);
  });

  it('sends frames as JSON only while connected', () => {
    const { chat, last } = setup();
    expect(chat.send({ type: 'typing_start' })).toBe(false);
    chat.start();
    vi.advanceTimersByTime(100);
    expect(chat.send({ type: 'typing_start' })).toBe(false);
    last().accept();
    expect(chat.send({ type: 'typing_stop' })).toBe(true);
    expect(last().sent).toEqual(['{"type":"typing_stop"}']);
  });

  it('closes with 1000 on stop and never reconnects afterwards', () => {
    const { chat, sockets, last } = setup();
    chat.start();
    vi.advanceTimersByTime(100);
    last().accept();
    const socket = last();
    chat.stop();
    expect(socket.closedWith).toBe(1000);
    expect(chat.getStatus()).toBe('disconnected');
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
  });

  it('does not connect when stopped before the first delay has passed, and starts again later', () => {
    const { chat, sockets, last } = setup();
    const joins: number[] = [];
    chat.on('room_joined', (frame) => joins.push(frame.memberCount));
    chat.start();
    chat.stop();
    vi.advanceTimersByTime(1000);
    expect(sockets).toHaveLength(0);
    // A second start (React's development double mount) connects and keeps the listeners.
    chat.start();
    vi.advanceTimersByTime(100);
    last().accept();
    last().receive(joined);
    expect(joins).toEqual([2]);
  });
});

describe('chatSocketUrl and reconnectDelayMs', () => {
  it('uses ws on http and wss on https, on the page host', () => {
    expect(chatSocketUrl({ protocol: 'http:', host: 'localhost:5000' })).toBe(
      'ws://localhost:5000/chat-ws',
    );
    expect(chatSocketUrl({ protocol: 'https:', host: 'chat.example' })).toBe(
      'wss://chat.example/chat-ws',
    );
  });

  it('draws each wait uniformly below min(30 s, 1 s × 2^attempt) (full jitter)', () => {
    const ceilings = [0, 1, 2, 3, 4, 5, 6, 20].map((attempt) =>
      reconnectDelayMs(attempt, () => 0.999_999_9),
    );
    expect(ceilings).toEqual([999, 1999, 3999, 7999, 15_999, 29_999, 29_999, 29_999]);
    expect(reconnectDelayMs(3, () => 0)).toBe(0);
    expect(reconnectDelayMs(3, () => 0.25)).toBe(2000);
    // A broken random source cannot stretch the wait past the cap, nor make it negative.
    expect(reconnectDelayMs(10, () => 7)).toBe(30_000);
    expect(reconnectDelayMs(10, () => -1)).toBe(0);
  });
});

/** A frame schema whose loading the test settles by hand. */
function pendingSchema() {
  let resolve!: (schema: FrameSchema) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<FrameSchema>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('ChatSocket while its frame schema loads', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  const presence = (type: string, username: string) =>
    JSON.stringify({ type, roomId: 'r', username, nodeId: 'n', memberCount: 1 });

  /** A connected socket whose schema is still loading, recording who joined. */
  function connectedWhileLoading() {
    const schema = pendingSchema();
    const socket = setup(schema.promise);
    const seen: unknown[] = [];
    socket.chat.on('user_joined', (frame) => seen.push(frame.username));
    socket.chat.start();
    vi.advanceTimersByTime(100);
    socket.last().accept();
    return { ...socket, schema, seen };
  }

  it('connects at once and hands the queued frames over in arrival order once it loads', async () => {
    const schema = pendingSchema();
    const { chat, last } = setup(schema.promise);
    const seen: string[] = [];
    chat.on('room_joined', (frame) => seen.push(`joined ${frame.memberCount}`));
    chat.on('user_joined', (frame) => seen.push(`+${frame.username}`));
    chat.on('user_left', (frame) => seen.push(`-${frame.username}`));
    chat.start();
    vi.advanceTimersByTime(100);
    last().accept();
    expect(chat.getStatus()).toBe('connected');
    last().receive(joined);
    last().receive(presence('user_joined', 'Agent1'));
    last().receive(presence('user_left', 'Agent1'));
    expect(seen).toEqual([]);

    schema.resolve(ServerFrameSchema);
    await vi.waitFor(() => expect(seen).toHaveLength(3));
    last().receive(presence('user_joined', 'Agent2'));
    expect(seen).toEqual(['joined 2', '+Agent1', '-Agent1', '+Agent2']);
  });

  it('still refuses a malformed frame that waited, and hands over the ones around it', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { chat, last, schema, seen } = connectedWhileLoading();
    chat.on('new_message', (frame) => seen.push(frame));
    last().receive(presence('user_joined', 'Agent1'));
    last().receive(JSON.stringify({ type: 'new_message', message: { content: 'secret-words' } }));
    last().receive(presence('user_joined', 'Agent2'));

    schema.resolve(ServerFrameSchema);
    await vi.waitFor(() => expect(seen).toEqual(['Agent1', 'Agent2']));
    expect(warn).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(warn.mock.calls)).not.toContain('secret-words');
  });

  it('hands nothing over and disconnects when the schema cannot be loaded; RECONNECT loads it again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { chat, sockets, last, schema, seen } = connectedWhileLoading();
    last().receive(presence('user_joined', 'Agent1'));

    schema.reject(new Error('chunk failed'));
    await vi.waitFor(() => expect(chat.hasProtocolFailed()).toBe(true));
    expect(chat.getStatus()).toBe('disconnected');
    expect(last().closedWith).toBe(1000);
    vi.advanceTimersByTime(10_000);
    expect(sockets).toHaveLength(1);
    expect(seen).toEqual([]);

    // The RECONNECT button fetches the real module this time.
    chat.reconnect();
    expect(chat.hasProtocolFailed()).toBe(false);
    expect(sockets).toHaveLength(2);
    last().accept();
    last().receive(presence('user_joined', 'Agent2'));
    await vi.waitFor(() => expect(seen).toEqual(['Agent2']));
  });

  it('drops the frames still waiting when the room is left', async () => {
    const { chat, last, schema, seen } = connectedWhileLoading();
    last().receive(presence('user_joined', 'Agent1'));
    chat.stop();
    schema.resolve(ServerFrameSchema);
    await schema.promise;
    await Promise.resolve();
    expect(seen).toEqual([]);
  });
});
