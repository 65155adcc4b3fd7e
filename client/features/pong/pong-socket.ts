/**
 * The Pong screen's WebSocket to `/ws` (spec 001 §4 "Pong connection", §7 "Pong WebSocket").
 * Framework-free, so its reconnect policy can be tested with fake timers and a fake socket:
 *
 * - status: connecting → connected → disconnected;
 * - on open it presents the key session (`session_auth`), then sends `join_game`;
 * - after a close with any code but 1000 or 1001 it reconnects after 2 s (spec 001 §9);
 * - every frame is parsed with PongServerFrameSchema; what does not parse is logged without its
 *   content and ignored (spec 001 §8), and server errors are only logged.
 */
import { PONG, WS_NORMAL_CLOSE_CODES } from '../../../shared/constants.js';
import {
  PongServerFrameSchema,
  type PongServerFrame,
  type PongSide,
} from '../../../shared/protocol/ws/pong.js';
import type { WebSocketLike } from '../../lib/realtime/websocket-like.js';

export type PongConnectionStatus = 'connecting' | 'connected' | 'disconnected';

export interface PongSocketOptions {
  url: string;
  sessionToken: string;
  username: string;
  gameId: string;
  open: (url: string) => WebSocketLike;
  onFrame: (frame: PongServerFrame) => void;
  onStatus: (status: PongConnectionStatus) => void;
  log?: (message: string) => void;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

export class PongSocket {
  private socket: WebSocketLike | null = null;
  private timer: unknown = null;
  private isStopped = false;

  constructor(private readonly options: PongSocketOptions) {}

  start(): void {
    this.isStopped = false;
    this.connect();
  }

  /** Closes normally (1000): no reconnect. */
  stop(): void {
    this.isStopped = true;
    if (this.timer !== null) (this.options.clearTimer ?? clearTimeout)(this.timer as never);
    this.timer = null;
    this.socket?.close(1000, 'Leaving');
    this.socket = null;
  }

  send(type: 'paddle_move', data: { side: PongSide; y: number }): void;
  send(type: 'start_game' | 'reset_game'): void;
  send(type: string, data?: unknown): void {
    if (this.socket?.readyState !== 1) return;
    this.socket.send(JSON.stringify({ type, data: data ?? {}, timestamp: Date.now() }));
  }

  private connect(): void {
    this.options.onStatus('connecting');
    const socket = this.options.open(this.options.url);
    this.socket = socket;
    socket.onopen = () => {
      this.options.onStatus('connected');
      socket.send(
        JSON.stringify({ type: 'session_auth', sessionToken: this.options.sessionToken }),
      );
      socket.send(
        JSON.stringify({
          type: 'join_game',
          data: { username: this.options.username, gameId: this.options.gameId },
          timestamp: Date.now(),
        }),
      );
    };
    socket.onmessage = (event) => this.receive(event.data);
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.options.onStatus('disconnected');
      const isNormal = (WS_NORMAL_CLOSE_CODES as readonly number[]).includes(event.code);
      if (this.isStopped || isNormal) return;
      this.timer = (this.options.setTimer ?? setTimeout)(() => {
        this.timer = null;
        if (!this.isStopped) this.connect();
      }, PONG.reconnectDelayMs);
    };
    socket.onerror = () => undefined;
  }

  private receive(data: unknown): void {
    let raw: unknown;
    try {
      raw = typeof data === 'string' ? JSON.parse(data) : null;
    } catch {
      this.options.log?.('Pong: unparseable frame ignored');
      return;
    }
    const frame = PongServerFrameSchema.safeParse(raw);
    if (!frame.success) return; // Frames of other features on the same socket (session_authenticated).
    if (frame.data.type === 'error') this.options.log?.(`Pong server error: ${frame.data.message}`);
    this.options.onFrame(frame.data);
  }
}

/** `ws://host/ws` or `wss://host/ws` for the page's location. */
export function pongSocketUrl(location: { protocol: string; host: string }): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
}
