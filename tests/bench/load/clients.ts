/**
 * WebSocket clients of the load generator. Each connects from its own loopback source address
 * (127.0.0.2, 127.0.0.3, …, then 127.0.1.0 and on: all of 127/8 is this machine), at most
 * {@link CONNECTIONS_PER_ADDRESS} sockets each: the server holds at most that many open sockets
 * per address as shipped (MAX_SOCKETS_PER_ADDRESS) and applies its global HTTP limit (1000
 * requests a minute per address, upgrades included) to WebSocket upgrades as well, and thousands
 * of users would not share one address.
 */
import WebSocket from 'ws';
import { DEFAULT_MAX_SOCKETS_PER_ADDRESS } from '../../../server/config.js';
import { generateCallsign } from '../../../shared/ids.js';
import type { RunningServer, ServerKind } from '../server-process.js';

export const CONNECTIONS_PER_ADDRESS = DEFAULT_MAX_SOCKETS_PER_ADDRESS;

/** Loopback address for the `index`-th connection of one server's lifetime. */
export function sourceAddress(index: number): string {
  const host = 2 + Math.floor(index / CONNECTIONS_PER_ADDRESS);
  if (host >= 256 * 256) throw new Error('too many connections for 127.0.0.0/16 source addresses');
  return `127.0.${Math.floor(host / 256)}.${host % 256}`;
}

const JOINED_PREFIX = '{"type":"room_joined"';
const ERROR_PREFIX = '{"type":"error"';

export class BenchClient {
  /** Called with every text frame after the join (the chat load sets it). */
  onFrame: ((text: string) => void) | null = null;
  /** Payload bytes of every frame received so far. */
  bytesReceived = 0;
  private pendingJoin: { resolve: () => void; reject: (error: Error) => void } | null = null;
  private closed: Promise<void>;

  private constructor(readonly socket: WebSocket) {
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
    socket.on('message', (data: WebSocket.RawData) => {
      const text = data.toString();
      this.bytesReceived += Buffer.isBuffer(data) ? data.length : Buffer.byteLength(text);
      this.receive(text);
    });
    socket.on('error', () => undefined);
  }

  static connect(wsUrl: string, localAddress: string, timeoutMs = 30_000): Promise<BenchClient> {
    const socket = new WebSocket(wsUrl, { localAddress, perMessageDeflate: false });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        socket.terminate();
        reject(new Error('connect timed out'));
      }, timeoutMs);
      socket.once('open', () => {
        clearTimeout(timer);
        resolve(new BenchClient(socket));
      });
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  }

  /** Sends join_room and resolves when room_joined arrives (an error frame rejects). */
  join(kind: ServerKind, roomId: string, timeoutMs = 30_000): Promise<void> {
    const frame =
      kind === 'securechannel'
        ? { type: 'join_room', roomId, username: generateCallsign() }
        : { type: 'join_room', roomId };
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('join timed out')), timeoutMs);
      this.pendingJoin = {
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      this.socket.send(JSON.stringify(frame));
    });
  }

  /**
   * Sends `text` and resolves with the first later frame starting with `prefix` (frames before
   * it still go to {@link onFrame}).
   */
  request(text: string, prefix: string, timeoutMs = 30_000): Promise<string> {
    const previous = this.onFrame;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.onFrame = previous;
        reject(new Error(`no reply starting with ${prefix}`));
      }, timeoutMs);
      this.onFrame = (frame) => {
        previous?.(frame);
        if (!frame.startsWith(prefix)) return;
        clearTimeout(timer);
        this.onFrame = previous;
        resolve(frame);
      };
      this.send(text);
    });
  }

  send(text: string): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(text);
  }

  get isOpen(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    this.socket.close(1000);
    // A peer that never answers the close handshake is cut off.
    const cut = setTimeout(() => this.socket.terminate(), 5000);
    return this.closed.then(() => clearTimeout(cut));
  }

  private receive(text: string): void {
    const join = this.pendingJoin;
    if (join) {
      if (text.startsWith(JOINED_PREFIX)) {
        this.pendingJoin = null;
        join.resolve();
      } else if (text.startsWith(ERROR_PREFIX)) {
        this.pendingJoin = null;
        join.reject(new Error(`join refused: ${text.slice(0, 200)}`));
      }
      return;
    }
    this.onFrame?.(text);
  }
}

export interface ConnectManyOptions {
  /** The server to connect to; its count of sockets opened sets the source addresses. */
  server: RunningServer;
  /**
   * The process the `index`-th socket connects to, when the service has several (default
   * `server`). Source addresses are still counted on `server` alone: processes sharing Redis
   * share one per-address HTTP limit.
   */
  serverFor?: (index: number) => RunningServer;
  /** How many sockets to open. */
  count: number;
  /** The room the `index`-th socket joins. */
  roomFor: (index: number) => string;
  /** Sockets connecting at once. */
  concurrency: number;
}

export interface ConnectManyResult {
  clients: BenchClient[];
  /** Per socket: milliseconds from starting the connect to its room_joined. */
  joinMs: number[];
  wallMs: number;
  /** performance.now() when the first socket started connecting. */
  startedAt: number;
}

/** Opens `count` sockets, each joining its room, at most `concurrency` in flight. */
export async function connectMany(options: ConnectManyOptions): Promise<ConnectManyResult> {
  const clients: BenchClient[] = new Array<BenchClient>(options.count);
  const joinMs: number[] = new Array<number>(options.count);
  const { server } = options;
  const firstIndex = server.connectionsOpened;
  server.connectionsOpened += options.count;
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < options.count) {
      const index = next++;
      const begin = performance.now();
      const target = options.serverFor?.(index) ?? server;
      const client = await BenchClient.connect(target.wsUrl, sourceAddress(firstIndex + index));
      await client.join(target.kind, options.roomFor(index));
      joinMs[index] = performance.now() - begin;
      clients[index] = client;
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, options.count) }, worker));
  return { clients, joinMs, wallMs: performance.now() - started, startedAt: started };
}

/** Closes every client, a batch at a time. */
export async function closeAll(clients: readonly BenchClient[], batch = 1000): Promise<void> {
  for (let i = 0; i < clients.length; i += batch) {
    await Promise.all(clients.slice(i, i + batch).map((client) => client.close()));
  }
}
