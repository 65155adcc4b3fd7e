/**
 * A small typed client of tor's control port (control-spec.txt): cookie authentication (SAFECOOKIE
 * when offered, COOKIE otherwise), GETINFO, SETCONF, SIGNAL and asynchronous STATUS_CLIENT events
 * for bootstrap progress. Commands are answered in order, so they are queued FIFO.
 *
 * A hostile or broken peer cannot crash the server: every reply goes through the bounded parser
 * (control-reply.ts); any protocol error closes the connection and fails every pending command
 * with a ControlProtocolError. Values sent to tor are never user text: the keywords are fixed
 * here and SETCONF values are checked against a closed character set.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import net from 'node:net';
import {
  ControlProtocolError,
  describeReply,
  parseGetInfo,
  parseKeywordArgs,
  ReplyParser,
  type ControlReply,
} from './control-reply.js';

/** tor answered a command with an error status (4xx/5xx). */
export class TorCommandError extends Error {
  override readonly name = 'TorCommandError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A bootstrap progress report (STATUS_CLIENT BOOTSTRAP). */
export interface BootstrapEvent {
  kind: 'bootstrap';
  progress: number;
  tag: string;
  summary: string;
}

/** Circuits became usable, or stopped being so (STATUS_CLIENT CIRCUIT_(NOT_)ESTABLISHED). */
export interface CircuitEvent {
  kind: 'circuit-established' | 'circuit-not-established';
}

export type ControlEvent = BootstrapEvent | CircuitEvent;

export interface ControlConnectOptions {
  host: string;
  port: number;
  timeoutMs?: number;
}

interface Pending {
  resolve: (reply: ControlReply) => void;
  reject: (error: Error) => void;
}

const SAFECOOKIE_SERVER_KEY = 'Tor safe cookie authentication server-to-controller hash';
const SAFECOOKIE_CLIENT_KEY = 'Tor safe cookie authentication controller-to-server hash';
const COOKIE_BYTES = 32;
/** SETCONF values: what this product ever sets (0/1, bridge lines are written to the torrc). */
const SAFE_CONF_VALUE = /^[A-Za-z0-9_.:/=,-]{1,256}$/;
const SAFE_KEYWORD = /^[A-Za-z][A-Za-z0-9_/-]{0,63}$/;

export class TorControlClient {
  private readonly queue: Pending[] = [];
  private readonly listeners = new Set<(event: ControlEvent) => void>();
  private readonly closeListeners = new Set<(error: Error | null) => void>();
  private closed = false;

  private constructor(private readonly socket: net.Socket) {
    const parser = new ReplyParser((reply) => this.dispatch(reply));
    socket.on('data', (chunk: Buffer) => {
      if (this.closed) return;
      try {
        parser.push(chunk);
      } catch (error) {
        this.fail(error instanceof Error ? error : new ControlProtocolError('bad reply'));
      }
    });
    socket.on('error', (error) => this.fail(error));
    socket.on('close', () => this.fail(null));
  }

  /** Opens a TCP connection to the control port (loopback only). */
  static connect(options: ControlConnectOptions): Promise<TorControlClient> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: options.host, port: options.port });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error('control port connection timed out'));
      }, options.timeoutMs ?? 5000);
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        resolve(new TorControlClient(socket));
      });
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Calls `listener` for every bootstrap and circuit event; returns an unsubscribe. */
  onEvent(listener: (event: ControlEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called once when the connection ends; `error` is null for an orderly close. */
  onClose(listener: (error: Error | null) => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /**
   * Authenticates with the cookie tor wrote (32 bytes). SAFECOOKIE when tor offers it (the server
   * proves it knows the cookie too, and the cookie never crosses the socket), else COOKIE.
   */
  async authenticate(cookie: Buffer): Promise<void> {
    if (cookie.length !== COOKIE_BYTES) throw new ControlProtocolError('cookie must be 32 bytes');
    const info = await this.command('PROTOCOLINFO 1');
    const authLine = info.lines.find((line) => line.text.startsWith('AUTH '));
    if (!authLine) throw new ControlProtocolError('PROTOCOLINFO has no AUTH line');
    const methods = (parseKeywordArgs(authLine.text).get('METHODS') ?? '').split(',');
    if (methods.includes('SAFECOOKIE')) {
      const clientNonce = randomBytes(32);
      const challenge = await this.command(
        `AUTHCHALLENGE SAFECOOKIE ${clientNonce.toString('hex')}`,
      );
      const args = parseKeywordArgs(challenge.lines.at(-1)?.text ?? '');
      const serverHash = hexBytes(args.get('SERVERHASH'), 32);
      const serverNonce = hexBytes(args.get('SERVERNONCE'), 32);
      const message = Buffer.concat([cookie, clientNonce, serverNonce]);
      const expected = createHmac('sha256', SAFECOOKIE_SERVER_KEY).update(message).digest();
      if (!timingSafeEqual(expected, serverHash)) {
        throw new ControlProtocolError('control port does not know the cookie');
      }
      const clientHash = createHmac('sha256', SAFECOOKIE_CLIENT_KEY).update(message).digest();
      await this.command(`AUTHENTICATE ${clientHash.toString('hex')}`);
      return;
    }
    if (methods.includes('COOKIE')) {
      await this.command(`AUTHENTICATE ${cookie.toString('hex')}`);
      return;
    }
    throw new ControlProtocolError('control port offers no cookie authentication');
  }

  /** GETINFO for fixed keys; every key must come back, and no other. */
  async getInfo<const K extends string>(keys: readonly K[]): Promise<Record<K, string>> {
    for (const key of keys) {
      if (!SAFE_KEYWORD.test(key)) throw new ControlProtocolError('bad GETINFO key');
    }
    const reply = await this.command(`GETINFO ${keys.join(' ')}`);
    const values = parseGetInfo(reply, keys);
    return Object.fromEntries(values) as Record<K, string>; // parseGetInfo checked every key
  }

  /** SETCONF with values from this module's closed set. */
  async setConf(entries: Record<string, string>): Promise<void> {
    const parts = Object.entries(entries).map(([key, value]) => {
      if (!SAFE_KEYWORD.test(key) || !SAFE_CONF_VALUE.test(value)) {
        throw new ControlProtocolError('bad SETCONF entry');
      }
      return `${key}=${value}`;
    });
    await this.command(`SETCONF ${parts.join(' ')}`);
  }

  /** SIGNAL NEWNYM (fresh circuits), RELOAD (re-read the torrc) or SHUTDOWN. */
  async signal(name: 'NEWNYM' | 'RELOAD' | 'SHUTDOWN'): Promise<void> {
    await this.command(`SIGNAL ${name}`);
  }

  /** Subscribes to STATUS_CLIENT events (bootstrap progress, circuits established). */
  async subscribeStatus(): Promise<void> {
    await this.command('SETEVENTS STATUS_CLIENT');
  }

  close(): void {
    if (this.closed) return;
    this.socket.end('QUIT\r\n');
    this.socket.destroySoon();
    this.fail(null);
  }

  /** Sends one command line; resolves with a 2xx reply, rejects otherwise. */
  private command(line: string): Promise<ControlReply> {
    if (this.closed) return Promise.reject(new ControlProtocolError('control connection closed'));
    return new Promise<ControlReply>((resolve, reject) => {
      this.queue.push({ resolve, reject });
      this.socket.write(`${line}\r\n`);
    }).then((reply) => {
      if (reply.status < 200 || reply.status > 299) {
        throw new TorCommandError(reply.status, describeReply(reply));
      }
      return reply;
    });
  }

  private dispatch(reply: ControlReply): void {
    if (reply.status >= 600 && reply.status <= 699) {
      const event = toEvent(reply);
      if (event) for (const listener of this.listeners) listener(event);
      return;
    }
    const pending = this.queue.shift();
    if (!pending) throw new ControlProtocolError('reply without a command');
    pending.resolve(reply);
  }

  private fail(error: Error | null): void {
    if (this.closed) return;
    this.closed = true;
    this.socket.destroy();
    const reason = error ?? new ControlProtocolError('control connection closed');
    for (const pending of this.queue.splice(0)) pending.reject(reason);
    for (const listener of this.closeListeners) listener(error);
  }
}

function hexBytes(value: string | undefined, length: number): Buffer {
  if (!value || !new RegExp(`^[0-9A-Fa-f]{${length * 2}}$`).test(value)) {
    throw new ControlProtocolError('malformed AUTHCHALLENGE reply');
  }
  return Buffer.from(value, 'hex');
}

/** `650 STATUS_CLIENT NOTICE BOOTSTRAP PROGRESS=50 TAG=… SUMMARY="…"` and circuit events. */
function toEvent(reply: ControlReply): ControlEvent | null {
  const text = reply.lines[0]?.text ?? '';
  const words = text.split(' ');
  if (words[0] !== 'STATUS_CLIENT') return null;
  const action = words[2];
  if (action === 'CIRCUIT_ESTABLISHED') return { kind: 'circuit-established' };
  if (action === 'CIRCUIT_NOT_ESTABLISHED') return { kind: 'circuit-not-established' };
  if (action !== 'BOOTSTRAP') return null;
  const args = parseKeywordArgs(text);
  const progress = Number(args.get('PROGRESS'));
  if (!Number.isInteger(progress) || progress < 0 || progress > 100) return null;
  return {
    kind: 'bootstrap',
    progress,
    tag: (args.get('TAG') ?? '').slice(0, 64),
    summary: (args.get('SUMMARY') ?? '').slice(0, 160),
  };
}
