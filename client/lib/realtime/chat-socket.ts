/**
 * The chat client's WebSocket to `/chat-ws` (spec 000 §4 "Chat connection", §7 "Realtime socket").
 * Framework-free so its reconnect policy can be tested with fake timers and a fake socket:
 *
 * - status: connecting → connected → disconnected;
 * - the first connect happens WS_INITIAL_CONNECT_DELAY_MS after start();
 * - a lost connection is tried again by itself, without limit (issue 35: a restarted server gets
 *   its browsers back), after a random wait of up to 1 s × 2^attempt, capped at 30 s ("full
 *   jitter", {@link reconnectDelayMs}); a connection that opens resets the count, and so does a
 *   manual reconnect() (the RECONNECT button). `getLink()` says when the next try starts;
 * - it does not try again by itself when it is held ({@link ReconnectHold}): the server closed it
 *   for good (1000, emergency shutdown 4001, key revoked 4003, bot ban 4008), sent a service
 *   notice, or the room says so (`hold()`: removed from the room, room destroyed). Only
 *   reconnect() or release() lifts a hold;
 * - every incoming frame is parsed with ServerFrameSchema; what does not parse is logged without
 *   its content and ignored. The schema (and zod with it) is fetched when the socket is made, in
 *   parallel with the connection, so that the pages holding a socket paint without zod (issue 22,
 *   target 5): frames that arrive before it has loaded wait, in arrival order, and are parsed and
 *   handed over once it is there. If it cannot be loaded, no frame is ever handed over: the
 *   socket closes and stays disconnected (`hasProtocolFailed`) until a reconnect() loads it again;
 * - emergency_shutdown_notice and maintenance_mode hand their route to `onServiceRedirect`.
 */
import {
  WS_INITIAL_CONNECT_DELAY_MS,
  WS_RECONNECT_BASE_MS,
  WS_RECONNECT_MAX_MS,
} from '../../../shared/constants.js';
import type { ClientFrame } from '../../../shared/protocol/ws/index.js';
import type { ServerFrame, ServerFrameSchema } from '../../../shared/protocol/ws/server-frames.js';
import { takeParkedSocket } from './socket-handoff.js';
import { openBrowserSocket, type WebSocketLike } from './websocket-like.js';

/** The schema every incoming frame is parsed with. */
export type FrameSchema = typeof ServerFrameSchema;

/** Fetches the frame schema module (and zod): the socket's first frames wait for it. */
export function loadFrameSchema(): Promise<FrameSchema> {
  return import('../../../shared/protocol/ws/server-frames.js').then((m) => m.ServerFrameSchema);
}

export type ChatConnectionStatus = 'connecting' | 'connected' | 'disconnected';

/**
 * Why the socket does not reconnect by itself: the server closed it for good ('closed', 1000),
 * for an emergency shutdown or maintenance ('shutdown': close 4001 or the service notice), for a
 * revoked key ('revoked', 4003) or a bot ban ('banned', 4008); or the page held it because this
 * browser was removed from its room ('removed') or the room was destroyed ('destroyed').
 */
export type ReconnectHold = 'closed' | 'shutdown' | 'revoked' | 'banned' | 'removed' | 'destroyed';

/** Server close codes after which the socket stays closed. 1001 (server restart) is not one. */
export const HOLDING_CLOSE_CODES: Readonly<Record<number, ReconnectHold>> = {
  1000: 'closed',
  4001: 'shutdown',
  4003: 'revoked',
  4008: 'banned',
};

/** The socket's connection as the page shows it; a new object on every change. */
export interface ChatLink {
  status: ChatConnectionStatus;
  /** When the next automatic try starts (the socket's clock, ms), or null when none is planned. */
  retryAt: number | null;
  /** Automatic tries since a connection last opened: above 0 while reconnecting. */
  attempt: number;
  /** Why it does not reconnect by itself, or null. */
  hold: ReconnectHold | null;
}

export { openBrowserSocket, type WebSocketLike } from './websocket-like.js';

/** WebSocket.OPEN, spelled out so the module needs no WebSocket global. */
const OPEN = 1;

export type ServerFrameType = ServerFrame['type'];

/** The member of the ServerFrame union whose `type` admits T (some schemas share two types). */
type FrameMatching<F, T> = F extends { type: infer U }
  ? T extends U
    ? F & { type: T }
    : never
  : never;
export type ServerFrameOf<T extends ServerFrameType> = FrameMatching<ServerFrame, T>;

/** Where the server's service notices send the browser (spec 000 §7). */
export type ServiceRedirect = '/emergency-shutdown' | '/maintenance-mode';

export interface ChatSocketOptions {
  url: string;
  /** Opens the socket; defaults to the browser's WebSocket. */
  createSocket?: (url: string) => WebSocketLike;
  onServiceRedirect?: (path: ServiceRedirect) => void;
  /**
   * Asked before every connection; false keeps the socket closed (the server's identity failed
   * its check). Nothing is sent until it answers.
   */
  beforeOpen?: () => Promise<boolean>;
  /** The frame schema, or its loading (default: {@link loadFrameSchema}, started at once). */
  frameSchema?: FrameSchema | Promise<FrameSchema>;
  /** Uniform in [0, 1): the reconnect jitter (default Math.random). */
  random?: () => number;
  /** The clock of `ChatLink.retryAt` (default Date.now). */
  now?: () => number;
}

/** `ws://host/chat-ws` on plain HTTP (localhost), `wss://host/chat-ws` on HTTPS. */
export function chatSocketUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}/chat-ws`;
}

/**
 * The wait before automatic try number `attempt` (0-based), with full jitter: uniform below
 * min(30 s, 1 s × 2^attempt), so browsers dropped together by a restart do not return together.
 */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(WS_RECONNECT_MAX_MS, WS_RECONNECT_BASE_MS * 2 ** attempt);
  return Math.floor(Math.min(Math.max(random(), 0), 1) * ceiling);
}

function parseFrame(schema: FrameSchema, data: unknown): ServerFrame | null {
  if (typeof data !== 'string') return null;
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

type AnyFrameListener = (frame: ServerFrame) => void;

export class ChatSocket {
  private socket: WebSocketLike | null = null;
  private status: ChatConnectionStatus = 'connecting';
  private reconnectAttempts = 0;
  private retryAt: number | null = null;
  private heldFor: ReconnectHold | null = null;
  private link: ChatLink = { status: 'connecting', retryAt: null, attempt: 0, hold: null };
  private readonly linkListeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private isStarted = false;
  private openAttempt = 0;
  private readonly statusListeners = new Set<(status: ChatConnectionStatus) => void>();
  private readonly frameListeners = new Map<ServerFrameType, Set<AnyFrameListener>>();
  private readonly createSocket: (url: string) => WebSocketLike;
  /** The frame schema once loaded; until then incoming frames wait in `unparsed`. */
  private schema: FrameSchema | null = null;
  private schemaLoading: Promise<void> | null = null;
  private unparsed: unknown[] = [];
  private protocolFailed = false;

  constructor(private readonly options: ChatSocketOptions) {
    this.createSocket = options.createSocket ?? openBrowserSocket;
    const { frameSchema } = options;
    if (frameSchema && !(frameSchema instanceof Promise)) this.schema = frameSchema;
    else this.loadSchema(frameSchema);
  }

  /** True when the frame schema could not be loaded: nothing is handed over, no connection. */
  hasProtocolFailed(): boolean {
    return this.protocolFailed;
  }

  private loadSchema(pending?: Promise<FrameSchema>): void {
    this.protocolFailed = false;
    const loading = (pending ?? loadFrameSchema()).then(
      (schema) => {
        if (this.schemaLoading !== loading) return;
        this.schema = schema;
        this.schemaLoading = null;
        // In arrival order, before any frame that comes after the schema is there.
        const waiting = this.unparsed;
        this.unparsed = [];
        for (const data of waiting) this.handle(schema, data);
      },
      () => {
        if (this.schemaLoading !== loading) return;
        this.schemaLoading = null;
        this.unparsed = [];
        this.protocolFailed = true;
        // eslint-disable-next-line no-console -- the socket cannot read any frame: say why it closed.
        console.error('[chat-socket] the protocol schemas could not be loaded');
        this.clearTimer();
        this.dropSocket(1000, 'Protocol unavailable');
        this.setStatus('disconnected');
        this.updateLink();
      },
    );
    this.schemaLoading = loading;
  }

  getStatus(): ChatConnectionStatus {
    return this.status;
  }

  /** The connection as the page shows it (stable until it changes, for useSyncExternalStore). */
  getLink = (): ChatLink => this.link;

  /** Calls `listener` on every change of {@link getLink}; returns the unsubscribe function. */
  onLinkChange = (listener: () => void): (() => void) => {
    this.linkListeners.add(listener);
    return () => this.linkListeners.delete(listener);
  };

  /**
   * Stops automatic reconnects (the connection, if open, stays): this browser was removed from
   * its room, or the room was destroyed. A pending try is cancelled.
   */
  hold(reason: ReconnectHold): void {
    this.heldFor = reason;
    this.clearTimer();
    this.updateLink();
  }

  /** Lifts a hold (another room was chosen): a lost connection is tried again at once. */
  release(): void {
    if (this.heldFor === null) return;
    this.heldFor = null;
    this.reconnectAttempts = 0;
    if (this.isStarted && !this.socket && this.status === 'disconnected') this.open();
    this.updateLink();
  }

  /** Schedules the first connect; does nothing while already started. */
  start(): void {
    if (this.isStarted) return;
    this.isStarted = true;
    this.reconnectAttempts = 0;
    this.heldFor = null;
    this.setStatus('connecting');
    this.schedule(WS_INITIAL_CONNECT_DELAY_MS);
    this.updateLink();
  }

  /** The RECONNECT button: a fresh connection now, with a fresh allowance of automatic tries. */
  reconnect(): void {
    if (this.protocolFailed) this.loadSchema();
    this.isStarted = true;
    this.reconnectAttempts = 0;
    this.heldFor = null;
    this.clearTimer();
    this.dropSocket(1000, 'Reconnecting');
    this.open();
    this.updateLink();
  }

  /**
   * Closes with 1000, so nothing reconnects, and cancels any pending try. Listeners stay, so a
   * later start() (React's development double mount) picks up where this left off.
   */
  stop(): void {
    this.isStarted = false;
    this.openAttempt += 1;
    // Frames still waiting for the schema belong to a room being left: never handed over.
    this.unparsed = [];
    this.clearTimer();
    this.dropSocket(1000, 'Leaving');
    this.setStatus('disconnected');
    this.updateLink();
  }

  /** Sends a frame when connected; returns false (and sends nothing) otherwise. */
  send(frame: ClientFrame): boolean {
    const socket = this.socket;
    if (!socket || socket.readyState !== OPEN) return false;
    socket.send(JSON.stringify(frame));
    return true;
  }

  onStatusChange(listener: (status: ChatConnectionStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Calls `listener` with every parsed frame of `type`; returns the unsubscribe function. */
  on<T extends ServerFrameType>(type: T, listener: (frame: ServerFrameOf<T>) => void): () => void {
    let listeners = this.frameListeners.get(type);
    if (!listeners) {
      listeners = new Set();
      this.frameListeners.set(type, listeners);
    }
    // Safe: dispatch() calls a listener only with frames whose `type` is the one it was
    // registered for, which is exactly ServerFrameOf<T>.
    const stored = listener as AnyFrameListener;
    listeners.add(stored);
    return () => listeners.delete(stored);
  }

  private open(): void {
    if (this.protocolFailed) {
      this.setStatus('disconnected');
      return;
    }
    this.setStatus('connecting');
    const { beforeOpen } = this.options;
    if (!beforeOpen) {
      this.connect();
      return;
    }
    const attempt = ++this.openAttempt;
    void beforeOpen().then(
      (isAllowed) => this.afterGate(attempt, isAllowed),
      () => this.afterGate(attempt, false),
    );
  }

  private afterGate(attempt: number, isAllowed: boolean): void {
    // A stop() or another open() since: this answer is stale.
    if (attempt !== this.openAttempt || !this.isStarted || this.socket) return;
    if (isAllowed) this.connect();
    else this.setStatus('disconnected');
    this.updateLink();
  }

  private connect(): void {
    let socket: WebSocketLike;
    // The socket the key login parked for the chat, when there is one (socket-handoff.ts).
    const handed = takeParkedSocket(this.options.url);
    try {
      socket = handed?.socket ?? this.createSocket(this.options.url);
    } catch {
      this.handleClose(1006);
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      if (this.socket !== socket) return;
      this.reconnectAttempts = 0;
      this.setStatus('connected');
      this.updateLink();
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.handleClose(event.code);
    };
    socket.onmessage = (event) => {
      if (this.socket === socket) this.receive(event.data);
    };
    // An error is always followed by a close event, which decides what happens next.
    socket.onerror = () => undefined;
    if (!handed) return;
    // Taken open: connected now, then what arrived while it waited, in order.
    this.reconnectAttempts = 0;
    this.setStatus('connected');
    this.updateLink();
    for (const data of handed.received) {
      if (this.socket === socket) this.receive(data);
    }
  }

  private handleClose(code: number): void {
    if (!this.isStarted) return;
    this.heldFor ??= HOLDING_CLOSE_CODES[code] ?? null;
    if (this.heldFor === null) {
      const delay = reconnectDelayMs(this.reconnectAttempts, this.options.random);
      this.reconnectAttempts += 1;
      this.schedule(delay);
      this.retryAt = this.clock() + delay;
    }
    this.setStatus('disconnected');
    this.updateLink();
  }

  private clock(): number {
    return (this.options.now ?? Date.now)();
  }

  private receive(data: unknown): void {
    if (this.schema) this.handle(this.schema, data);
    else if (!this.protocolFailed) this.unparsed.push(data);
  }

  private handle(schema: FrameSchema, data: unknown): void {
    const frame = parseFrame(schema, data);
    if (!frame) {
      // eslint-disable-next-line no-console -- spec 000 §7: unparseable socket messages are logged and ignored; the content is never logged.
      console.warn('[chat-socket] ignored a frame that does not match the protocol');
      return;
    }
    if (frame.type === 'emergency_shutdown_notice') {
      this.hold('shutdown');
      this.options.onServiceRedirect?.('/emergency-shutdown');
    } else if (frame.type === 'maintenance_mode') {
      this.hold('shutdown');
      this.options.onServiceRedirect?.('/maintenance-mode');
    }
    this.dispatch(frame);
  }

  private dispatch(frame: ServerFrame): void {
    const listeners = this.frameListeners.get(frame.type);
    if (!listeners) return;
    for (const listener of [...listeners]) listener(frame);
  }

  private schedule(delayMs: number): void {
    this.clearTimer();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.retryAt = null;
      if (this.isStarted) this.open();
      this.updateLink();
    }, delayMs);
  }

  private clearTimer(): void {
    this.retryAt = null;
    if (this.timer === null) return;
    clearTimeout(this.timer);
    this.timer = null;
  }

  /** Detaches and closes the current socket so its close event cannot trigger a retry. */
  private dropSocket(code: number, reason: string): void {
    const socket = this.socket;
    if (!socket) return;
    this.socket = null;
    socket.onopen = null;
    socket.onclose = null;
    socket.onmessage = null;
    socket.onerror = null;
    try {
      socket.close(code, reason);
    } catch {
      // Already closing: nothing more to do.
    }
  }

  /** Publishes a new {@link ChatLink} when anything in it changed. */
  private updateLink(): void {
    const link = this.link;
    const attempt = this.status === 'connected' ? 0 : this.reconnectAttempts;
    if (
      link.status === this.status &&
      link.retryAt === this.retryAt &&
      link.attempt === attempt &&
      link.hold === this.heldFor
    )
      return;
    this.link = { status: this.status, retryAt: this.retryAt, attempt, hold: this.heldFor };
    for (const listener of [...this.linkListeners]) listener();
  }

  private setStatus(status: ChatConnectionStatus): void {
    if (this.status === status) return;
    this.status = status;
    for (const listener of [...this.statusListeners]) listener(status);
  }
}

/**
 * What every connection readout says (issue 35: disconnected shows as disconnected everywhere):
 * 'connecting' only for the first connection; after a loss, 'reconnecting' while a try is
 * planned or under way, and 'disconnected' when none is (held, refused, or given up).
 */
export type LinkPhase = 'connected' | 'connecting' | 'reconnecting' | 'disconnected';

export function linkPhase(link: ChatLink): LinkPhase {
  if (link.status === 'connected') return 'connected';
  if (link.hold !== null) return 'disconnected';
  if (link.retryAt !== null || (link.status === 'connecting' && link.attempt > 0)) {
    return 'reconnecting';
  }
  return link.status;
}

/** The header's words for a connection that is not up: "RECONNECTING IN 4 s…" and the like. */
export function linkText(link: ChatLink, now: number): string {
  const phase = linkPhase(link);
  if (phase === 'reconnecting') {
    if (link.retryAt === null) return 'RECONNECTING...';
    const seconds = Math.max(1, Math.ceil((link.retryAt - now) / 1000));
    return `RECONNECTING IN ${seconds} s…`;
  }
  if (phase === 'connecting') return 'ESTABLISHING_LINK...';
  return phase === 'connected' ? 'CONNECTED' : 'CONNECTION_LOST';
}
