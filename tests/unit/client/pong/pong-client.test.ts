/**
 * The Pong screen's client logic (spec 001 §4, §5, §9): the status texts exactly as the spec gives
 * them, the socket's reconnect after 2 s unless closed with 1000 or 1001, interpolation between
 * 30 Hz states, and the own paddle's prediction and throttled aim.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WebSocketLike } from '../../../../client/lib/realtime/chat-socket.js';
import { Interpolator } from '../../../../client/features/pong/interpolation.js';
import {
  PaddleControl,
  SEND_INTERVAL_MS,
} from '../../../../client/features/pong/paddle-control.js';
import {
  PongSocket,
  type PongConnectionStatus,
} from '../../../../client/features/pong/pong-socket.js';
import { statusText } from '../../../../client/features/pong/status-text.js';
import type { PongGameState, PongServerFrame } from '../../../../shared/protocol/ws/pong.js';

function gameState(overrides: Partial<PongGameState> = {}): PongGameState {
  return {
    gameId: 'lobby',
    players: { left: null, right: null },
    spectators: 0,
    gameStatus: 'waiting',
    mode: null,
    winner: null,
    scores: { left: 0, right: 0 },
    ball: { x: 400, y: 200, vx: 0, vy: 0, isGhost: false },
    balls: [],
    speed: 0,
    paddles: {
      left: { y: 160, size: 80, reversed: false },
      right: { y: 160, size: 80, reversed: false },
    },
    powerUps: [],
    activeEffects: [],
    glitchActive: false,
    tick: 0,
    ...overrides,
  };
}
const alice = { id: 'node_a', username: 'alice' };
const bob = { id: 'node_b', username: 'bob' };

describe('status text', () => {
  it('says what the spec says for each state', () => {
    expect(statusText(gameState())).toBe('Ready for practice mode or multiplayer');
    expect(statusText(gameState({ players: { left: alice, right: null } }))).toBe(
      'Practice mode ready (1/2 players)',
    );
    expect(statusText(gameState({ players: { left: alice, right: bob } }))).toBe(
      'Ready for multiplayer (2/2 players)',
    );
    expect(statusText(gameState({ gameStatus: 'playing', mode: 'practice' }))).toBe(
      'Practice mode active',
    );
    expect(statusText(gameState({ gameStatus: 'playing', mode: 'multiplayer' }))).toBe(
      'Multiplayer game in progress',
    );
    expect(statusText(gameState({ gameStatus: 'paused' }))).toBe('Game paused');
    expect(statusText(gameState({ gameStatus: 'finished', winner: 'right' }))).toBe(
      'Game finished! Right player wins!',
    );
    expect(statusText(gameState({ gameStatus: 'finished', winner: 'left' }))).toBe(
      'Game finished! Left player wins!',
    );
    // A status the client does not know, from a newer server.
    const unknown = JSON.parse(
      JSON.stringify({ ...gameState(), gameStatus: 'odd' }),
    ) as PongGameState;
    expect(statusText(unknown)).toBe('Unknown status');
  });
});

class FakeSocket implements WebSocketLike {
  readyState = 0;
  readonly sent: string[] = [];
  onopen: (() => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onerror: (() => void) | null = null;
  send(data: string): void {
    this.sent.push(data);
  }
  close(): void {
    this.readyState = 3;
  }
}

describe('PongSocket', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function setup() {
    const sockets: FakeSocket[] = [];
    const statuses: PongConnectionStatus[] = [];
    const frames: PongServerFrame[] = [];
    const logs: string[] = [];
    const pong = new PongSocket({
      url: 'ws://example.test/ws',
      sessionToken: 'token',
      username: 'alice',
      gameId: 'lobby',
      open: () => {
        const socket = new FakeSocket();
        sockets.push(socket);
        return socket;
      },
      onFrame: (frame) => frames.push(frame),
      onStatus: (status) => statuses.push(status),
      log: (line) => logs.push(line),
    });
    return { pong, sockets, statuses, frames, logs };
  }

  it('presents the session, joins, and parses frames', () => {
    const { pong, sockets, statuses, frames, logs } = setup();
    pong.start();
    const socket = sockets[0]!;
    socket.readyState = 1;
    socket.onopen?.();
    expect(statuses).toEqual(['connecting', 'connected']);
    expect(socket.sent.map((text) => JSON.parse(text) as { type: string })).toMatchObject([
      { type: 'session_auth', sessionToken: 'token' },
      { type: 'join_game', data: { username: 'alice', gameId: 'lobby' } },
    ]);
    socket.onmessage?.({
      data: JSON.stringify({
        type: 'game_state',
        data: { gameState: gameState(), playerSide: 'left' },
        timestamp: 1,
      }),
    });
    socket.onmessage?.({ data: '{not json' });
    socket.onmessage?.({
      data: JSON.stringify({ type: 'error', message: 'Game is not in progress' }),
    });
    expect(frames.map((frame) => frame.type)).toEqual(['game_state', 'error']);
    expect(logs).toEqual([
      'Pong: unparseable frame ignored',
      'Pong server error: Game is not in progress',
    ]);
    pong.send('paddle_move', { side: 'left', y: 100 });
    expect(JSON.parse(socket.sent.at(-1)!)).toMatchObject({
      type: 'paddle_move',
      data: { side: 'left', y: 100 },
    });
  });

  it('reconnects 2 s after an abnormal close, never after 1000 or 1001', () => {
    const { pong, sockets, statuses } = setup();
    pong.start();
    sockets[0]!.onclose?.({ code: 1006 });
    expect(statuses.at(-1)).toBe('disconnected');
    vi.advanceTimersByTime(1999);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    sockets[1]!.onclose?.({ code: 1001 });
    vi.advanceTimersByTime(10_000);
    expect(sockets).toHaveLength(2);
  });
});

describe('interpolation', () => {
  const playing = (x: number, paddle: number) =>
    gameState({
      gameStatus: 'playing',
      ball: { x, y: 200, vx: 4, vy: 0, isGhost: false },
      paddles: {
        left: { y: paddle, size: 80, reversed: false },
        right: { y: 160, size: 80, reversed: false },
      },
    });

  it('draws between two states, and a serve as a jump', () => {
    const interpolator = new Interpolator();
    interpolator.push(playing(100, 100), 1000);
    interpolator.push(playing(108, 110), 1033);
    const between = interpolator.at(1000 + 16.5 + 70);
    expect(between?.ball.x).toBeCloseTo(104, 0);
    expect(between?.paddles.left.y).toBeCloseTo(105, 0);
    interpolator.push(playing(400, 110), 1066);
    expect(interpolator.at(1050 + 70)?.ball.x).toBe(400);
  });
});

describe('paddle control', () => {
  const server = { y: 160, size: 80, reversed: false };

  it('moves the own paddle 5 per frame at once and sends the aim at most every 66 ms', () => {
    const control = new PaddleControl();
    expect(control.update(0, 1000 / 60, 1, server, true)).toEqual({ drawY: 165, send: 165 });
    expect(control.update(16, 1000 / 60, 1, server, true)).toEqual({ drawY: 170, send: null });
    expect(control.update(SEND_INTERVAL_MS, 1000 / 60, 1, server, true).send).toBe(175);
  });

  it('stops at 0..(400 − height) and follows the server while controls are reversed', () => {
    const control = new PaddleControl();
    expect(control.update(0, 1000 / 60, -1, { ...server, y: 2 }, true).drawY).toBe(0);
    expect(control.update(100, 1000 / 60, 1, { ...server, reversed: true }, true)).toEqual({
      drawY: 160,
      send: 190,
    });
    expect(control.update(300, 1000 / 60, 0, server, false)).toEqual({ drawY: 160, send: null });
  });
});
