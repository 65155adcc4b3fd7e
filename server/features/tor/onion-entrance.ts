/**
 * The onion service's entrance: a loopback listener that tor forwards onion streams to, ahead of
 * the app's own HTTP server.
 *
 * tor is told (`HiddenServiceExportCircuitID haproxy`) to open every stream with a PROXY protocol
 * v1 line naming its rendezvous circuit. The entrance reads that line, gives the connection the
 * circuit's address (server/lib/onion-socket.ts) and hands it to the app's server, so onion
 * visitors are counted one circuit at a time by every per-address limit instead of all together as
 * "the local tor daemon". A connection that does not start with a well-formed line from tor is
 * closed before anything reaches the app.
 */
import net, { type AddressInfo, type Socket } from 'node:net';
import type { IncomingMessage } from 'node:http';
import { markOnionSocket, onionCircuitOf, ONION_CIRCUIT_PREFIX } from '../../lib/onion-socket.js';

/** A PROXY v1 line is at most 107 bytes with its CRLF (haproxy's proxy-protocol.txt §2.1). */
const MAX_HEADER_BYTES = 107;
/** tor writes the line as soon as the stream opens; anything slower is not tor. */
const HEADER_TIMEOUT_MS = 10_000;

const HEADER =
  /^PROXY TCP6 fc00:dead:beef:4dad::([0-9a-f]{1,4}):([0-9a-f]{1,4}) [0-9a-f:.]{2,45} \d{1,5} \d{1,5}$/i;

/** The circuit address in tor's PROXY line, or null when the line is not one tor writes. */
export function parseCircuitLine(line: string): string | null {
  const match = HEADER.exec(line);
  if (!match) return null;
  const high = Number.parseInt(match[1]!, 16).toString(16);
  const low = Number.parseInt(match[2]!, 16).toString(16);
  return `${ONION_CIRCUIT_PREFIX}${high}:${low}`;
}

/** The server onion connections are handed to: the app's own HTTP(S) server. */
export interface EntranceTarget {
  emit(event: 'connection', socket: Socket): boolean;
  prependListener(
    event: 'request' | 'upgrade',
    listener: (request: IncomingMessage) => void,
  ): unknown;
}

export class OnionEntrance {
  #server: net.Server | null = null;
  #listening: Promise<{ host: string; port: number }> | null = null;
  #host: string | null = null;
  #stripping = false;

  constructor(private readonly target: () => EntranceTarget) {}

  /** Listens on `host` (a loopback address) on a free port, once; the address tor forwards to. */
  listen(host: '127.0.0.1' | '::1'): Promise<{ host: string; port: number }> {
    if (this.#listening && this.#host === host) return this.#listening;
    const previous = this.close();
    this.#host = host;
    this.#listening = previous.then(
      () =>
        new Promise((resolve, reject) => {
          const server = net.createServer({ pauseOnConnect: false }, (socket) =>
            this.#accept(socket),
          );
          server.once('error', reject);
          server.listen({ host, port: 0 }, () => {
            server.off('error', reject);
            this.#server = server;
            resolve({ host, port: (server.address() as AddressInfo).port });
          });
        }),
    );
    this.#listening.catch(() => {
      this.#listening = null;
      this.#host = null;
    });
    return this.#listening;
  }

  /** The address it listens on, or null. */
  get address(): { host: string; port: number } | null {
    const info = this.#server?.address();
    return info && typeof info === 'object' ? { host: info.address, port: info.port } : null;
  }

  /** Stops listening; connections already handed over stay with the app's server. */
  async close(): Promise<void> {
    const server = this.#server;
    this.#server = null;
    this.#listening = null;
    this.#host = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  #accept(socket: Socket): void {
    let buffered: Buffer = Buffer.alloc(0);
    const fail = (): void => {
      cleanup();
      socket.destroy();
    };
    const timer = setTimeout(fail, HEADER_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n');
      if (end === -1) {
        if (buffered.length >= MAX_HEADER_BYTES) fail();
        return;
      }
      const address =
        end + 2 <= MAX_HEADER_BYTES ? parseCircuitLine(buffered.toString('latin1', 0, end)) : null;
      if (!address) {
        fail();
        return;
      }
      cleanup();
      socket.pause();
      const rest = buffered.subarray(end + 2);
      if (rest.length > 0) socket.unshift(rest);
      markOnionSocket(socket, address);
      this.#handOver(socket);
    };
    const cleanup = (): void => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('error', fail);
      socket.off('close', cleanup);
    };
    socket.on('data', onData);
    socket.on('error', fail);
    socket.on('close', cleanup);
  }

  #handOver(socket: Socket): void {
    const target = this.target();
    if (!this.#stripping) {
      // Forwarding headers mean nothing from an onion visitor: they could only be used to pose as
      // another address behind a trusted proxy. Dropped before Fastify reads `request.ip`.
      this.#stripping = true;
      const strip = (request: IncomingMessage): void => {
        if (onionCircuitOf(request.socket) === null) return;
        const headers = request.headers;
        delete headers.forwarded;
        delete headers['x-forwarded-for'];
        delete headers['x-forwarded-host'];
        delete headers['x-forwarded-proto'];
      };
      target.prependListener('request', strip);
      target.prependListener('upgrade', strip);
    }
    target.emit('connection', socket);
    socket.resume();
  }
}
