/**
 * The realtime hub behind `/chat-ws` and `/ws`. Every frame goes through the same steps, each of
 * which can answer `{type:"error", message}` to the sender alone:
 *   size check → rate check → JSON.parse → `type` lookup → the type's schema → its handler.
 * A handler's failure touches only its sender. Sockets are closed only for protocol breaches
 * (a flood that will not stop), with a close code.
 */
import type { FastifyBaseLogger } from 'fastify';
import { LIMITS } from '../../shared/constants.js';
import { WS_ERROR } from '../../shared/protocol/errors.js';
import { isTextRuleIssue } from '../../shared/protocol/text.js';
import {
  CLIENT_FRAME_SCHEMAS,
  isClientFrameType,
  type ClientFrame,
  type ClientFrameType,
} from '../../shared/protocol/ws/index.js';
import { fastParseClientFrame } from '../../shared/protocol/ws/fast-parse.js';
import { isAppError } from '../errors.js';
import { isDependencyUnavailable } from '../lib/unavailable.js';
import { errorForLog } from '../lib/log-error.js';
import {
  Connection,
  type FrameTransport,
  type OutgoingFrame,
  type SocketLike,
} from './connection.js';
import { TokenBucket } from './token-bucket.js';
import { SharedFrame } from './ws-frame.js';

export type FrameHandler<T extends ClientFrameType> = (
  connection: Connection,
  frame: ClientFrame<T>,
) => void | Promise<void>;

/** Runs before dispatch; returning false stops the frame (the guard answers the client itself). */
export type FrameGuard = (
  connection: Connection,
  type: ClientFrameType,
  frame: ClientFrame,
  /** When the frame arrived, before it waited in the connection's queue. */
  receivedAt: number,
) => boolean;

/** What {@link Hub.receive} returns for a frame handled within the call. */
const HANDLED: Promise<void> = Promise.resolve();

export type ConnectionListener = (connection: Connection) => void | Promise<void>;

export interface HubMetrics {
  onFrame(type: string, outcome: 'ok' | 'error'): void;
  onConnectionsChanged(count: number): void;
}

export interface HubOptions {
  logger: FastifyBaseLogger;
  metrics?: HubMetrics;
  /** Frames per second a connection may send on average, and the burst above it. */
  rate?: { perSecond: number; burst: number };
  /** Rejected frames within one flood before the socket is closed with 1008. */
  floodCloseAfter?: number;
  now?: () => number;
}

export class Hub {
  private readonly handlers = new Map<ClientFrameType, FrameHandler<ClientFrameType>>();
  private readonly guards: FrameGuard[] = [];
  private readonly connectListeners: ConnectionListener[] = [];
  private readonly disconnectListeners: ConnectionListener[] = [];
  /** Disconnect listeners still running (see {@link drained}). */
  private readonly pendingDisconnects = new Set<Promise<unknown>>();
  readonly connections = new Set<Connection>();

  constructor(private readonly options: HubOptions) {}

  /** Registers the handler of one frame type; a type has at most one handler. */
  on<T extends ClientFrameType>(type: T, handler: FrameHandler<T>): void {
    if (this.handlers.has(type)) throw new Error(`Handler for ${type} already registered`);
    this.handlers.set(type, handler as FrameHandler<ClientFrameType>);
  }

  use(guard: FrameGuard): void {
    this.guards.push(guard);
  }

  onConnect(listener: ConnectionListener): void {
    this.connectListeners.push(listener);
  }

  onDisconnect(listener: ConnectionListener): void {
    this.disconnectListeners.push(listener);
  }

  /** Takes over a freshly upgraded socket. */
  attach(
    socket: SocketLike & {
      on(
        event: 'message',
        listener: (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => void,
      ): void;
      on(event: 'close', listener: () => void): void;
      on(event: 'error', listener: (error: Error) => void): void;
    },
    remoteAddress: string,
    path: string,
    transport: FrameTransport | null = null,
    /** The visitor key (server/lib/visitor.ts); from `remoteAddress` alone when not given. */
    visitor?: string,
  ): Connection {
    const connection = new Connection(socket, remoteAddress, path, transport, visitor);
    const rate = this.options.rate ?? { perSecond: 20, burst: 40 };
    this.connections.add(connection);
    connection.bucket = new TokenBucket(rate.burst, rate.perSecond, this.options.now);
    this.options.metrics?.onConnectionsChanged(this.connections.size);

    socket.on('message', (data, isBinary) => {
      void this.receive(connection, data, isBinary);
    });
    socket.on('error', (error) => {
      this.options.logger.debug(
        { nodeId: connection.nodeId, err: errorForLog(error) },
        'socket error',
      );
    });
    socket.on('close', () => {
      this.connections.delete(connection);
      connection.bucket = null;
      connection.frameQueue = null;
      this.options.metrics?.onConnectionsChanged(this.connections.size);
      for (const listener of this.disconnectListeners) {
        const done = Promise.resolve()
          .then(() => listener(connection))
          .catch((error: unknown) => this.logFailure(connection, 'disconnect', error));
        this.pendingDisconnects.add(done);
        void done.finally(() => this.pendingDisconnects.delete(done));
      }
    });
    for (const listener of this.connectListeners) {
      void Promise.resolve()
        .then(() => listener(connection))
        .catch((error: unknown) => this.logFailure(connection, 'connect', error));
    }
    return connection;
  }

  /**
   * Handles one raw frame from `connection`. Frames of one connection are handled one after the
   * other, in arrival order, so a send_message right after a join_room sees the join. Exposed for
   * tests that bypass the socket.
   */
  receive(
    connection: Connection,
    data: Buffer | ArrayBuffer | Buffer[],
    isBinary: boolean,
  ): Promise<void> {
    // The rate check runs before anything else, so oversized frames count towards a flood too.
    if (!this.takeToken(connection)) return HANDLED;
    const receivedAt = (this.options.now ?? Date.now)();
    if (connection.frameQueue === null) {
      // Nothing ahead of it: handled now. A handler that finishes within the call (a message in
      // one process) leaves nothing queued and costs no promise.
      let handling: void | Promise<void>;
      try {
        handling = this.process(connection, data, isBinary, receivedAt);
      } catch (error) {
        // A guard that throws: the caller gets a rejection, as from a frame that was queued.
        return Promise.reject(error);
      }
      if (!handling) return HANDLED;
      const next = this.finishInOrder(connection, handling);
      connection.frameQueue = next;
      return next;
    }
    const next = this.processInOrder(connection, data, isBinary, receivedAt);
    connection.frameQueue = next;
    return next;
  }

  /** Holds the connection's queue until `handling`, a frame handled already, has finished. */
  private async finishInOrder(connection: Connection, handling: Promise<void>): Promise<void> {
    connection.queuedFrames += 1;
    try {
      await handling;
    } finally {
      connection.queuedFrames -= 1;
      if (connection.queuedFrames === 0) connection.frameQueue = null;
    }
  }

  /**
   * Waits for the connection's previous frame, handles this one, and when it was the last queued
   * clears the queue: an idle connection holds no promise. A count rather than a `then` per frame
   * keeps the hot path free of per-frame closures.
   */
  private async processInOrder(
    connection: Connection,
    data: Buffer | ArrayBuffer | Buffer[],
    isBinary: boolean,
    receivedAt: number,
  ): Promise<void> {
    const previous = connection.frameQueue;
    connection.queuedFrames += 1;
    try {
      if (previous) await previous;
      await this.process(connection, data, isBinary, receivedAt);
    } finally {
      connection.queuedFrames -= 1;
      if (connection.queuedFrames === 0) connection.frameQueue = null;
    }
  }

  /** Handles one frame; returns nothing when it was handled within the call. */
  private process(
    connection: Connection,
    data: Buffer | ArrayBuffer | Buffer[],
    isBinary: boolean,
    receivedAt: number,
  ): void | Promise<void> {
    if (!connection.isOpen) return;
    if (frameSize(data) > LIMITS.wsFrameBytes)
      return this.reject(connection, WS_ERROR.frameTooLarge);
    if (isBinary) return this.reject(connection, WS_ERROR.invalidJson);

    let raw: unknown;
    try {
      raw = JSON.parse(frameText(data));
    } catch {
      return this.reject(connection, WS_ERROR.invalidJson);
    }
    const type = clientFrameType(raw);
    if (type === null) return this.reject(connection, WS_ERROR.unknownType);
    // The hot types have a hand-written check with the schema's outcome (fast-parse.ts); when it
    // is not sure, the schema decides.
    let frame = fastParseClientFrame(type, raw as Record<string, unknown>);
    if (frame === null) {
      const parsed = CLIENT_FRAME_SCHEMAS[type].safeParse(raw);
      if (!parsed.success) {
        // The text rule's messages are fixed and name the field, so they may be quoted.
        const textRule = parsed.error.issues.find((issue) => isTextRuleIssue(issue));
        const message = textRule
          ? `${WS_ERROR.invalidFrame(type)}: ${textRule.message}`
          : WS_ERROR.invalidFrame(type);
        return this.reject(connection, message, type);
      }
      frame = parsed.data as ClientFrame<typeof type>;
    }
    const handler = this.handlers.get(type);
    if (!handler) return this.reject(connection, WS_ERROR.unsupported(type), type);
    for (const guard of this.guards) if (!guard(connection, type, frame, receivedAt)) return;

    let handling: void | Promise<void>;
    try {
      handling = handler(connection, frame);
    } catch (error) {
      return this.handlerFailed(connection, type, error);
    }
    if (!handling) return this.options.metrics?.onFrame(type, 'ok');
    return handling.then(
      () => this.options.metrics?.onFrame(type, 'ok'),
      (error: unknown) => this.handlerFailed(connection, type, error),
    );
  }

  /**
   * A handler's failure: its own message to the sender for an AppError, a temporary-outage text
   * when PostgreSQL or Redis is out of reach (the process says so once, not per frame), else
   * logged.
   */
  private handlerFailed(connection: Connection, type: ClientFrameType, error: unknown): void {
    if (isAppError(error)) return this.reject(connection, error.message, type);
    if (isDependencyUnavailable(error)) return this.reject(connection, WS_ERROR.unavailable, type);
    this.logFailure(connection, type, error);
    this.reject(connection, WS_ERROR.internal, type);
  }

  connectionCount(): number {
    return this.connections.size;
  }

  /** Sends a frame to every open connection (service notices). */
  broadcastAll(frame: OutgoingFrame): number {
    const shared = new SharedFrame(JSON.stringify(frame));
    let count = 0;
    for (const connection of this.connections) {
      if (!connection.isOpen) continue;
      connection.sendShared(shared);
      count += 1;
    }
    return count;
  }

  /** Closes the sockets `predicate` picks (a revoked key's, a banned address's). */
  closeWhere(predicate: (connection: Connection) => boolean, code: number, reason: string): number {
    let count = 0;
    for (const connection of this.connections) {
      if (!predicate(connection)) continue;
      connection.close(code, reason);
      count += 1;
    }
    return count;
  }

  /**
   * Resolves once every socket has closed and what its close set off (leaving its room, on every
   * process through Redis) is done, or after `timeoutMs`: a shutdown waits for it before closing
   * Redis, or its members would stay listed elsewhere until its heartbeat expires.
   */
  async drained(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (
      (this.connections.size > 0 || this.pendingDisconnects.size > 0) &&
      Date.now() < deadline
    ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Closes every socket, e.g. with 1001 when the server goes away. */
  closeAll(code: number, reason: string): void {
    for (const connection of this.connections) connection.close(code, reason);
  }

  private takeToken(connection: Connection): boolean {
    const bucket = connection.bucket;
    if (!bucket) return false;
    if (bucket.take()) {
      connection.rejectedFrames = 0;
      return true;
    }
    connection.rejectedFrames += 1;
    if (connection.rejectedFrames >= (this.options.floodCloseAfter ?? 200)) {
      connection.close(1008, 'Flood');
      return false;
    }
    // One error frame per flood is enough; answering every dropped frame would amplify it.
    if (connection.rejectedFrames === 1)
      connection.send(this.errorFrame(connection, WS_ERROR.rateLimited));
    this.options.metrics?.onFrame('rate_limited', 'error');
    return false;
  }

  private reject(connection: Connection, message: string, frameType?: string): void {
    this.options.metrics?.onFrame(frameType ?? 'invalid', 'error');
    connection.send(this.errorFrame(connection, message, frameType));
  }

  /** `{type:"error", message}`; on `/ws` also wrapped as `{data: {message}, timestamp}` (spec 001 §7). */
  private errorFrame(connection: Connection, message: string, frameType?: string): OutgoingFrame {
    const frame: OutgoingFrame = frameType
      ? { type: 'error', message, frameType }
      : { type: 'error', message };
    if (connection.path !== '/ws') return frame;
    return { ...frame, data: { message }, timestamp: (this.options.now ?? Date.now)() };
  }

  private logFailure(connection: Connection, stage: string, error: unknown): void {
    // Name and code only: the message, and stack lines, could quote frame content or query values.
    const err = errorForLog(error);
    this.options.logger.error({ nodeId: connection.nodeId, stage, err }, 'realtime handler failed');
  }
}

/**
 * The frame's `type` when it names a client frame, else null: what FrameEnvelopeSchema and
 * isClientFrameType decide together, without a schema run for every frame (the type's own schema
 * parses the whole frame next).
 */
function clientFrameType(raw: unknown): ClientFrameType | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const type: unknown = (raw as { type?: unknown }).type;
  return typeof type === 'string' && isClientFrameType(type) ? type : null;
}

function frameSize(data: Buffer | ArrayBuffer | Buffer[]): number {
  if (Array.isArray(data)) return data.reduce((sum, part) => sum + part.byteLength, 0);
  return data.byteLength;
}

function frameText(data: Buffer | ArrayBuffer | Buffer[]): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}
