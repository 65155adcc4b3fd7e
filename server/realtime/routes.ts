/**
 * Takes WebSocket upgrades on `/chat-ws` and `/ws` (both accept every frame type, DESIGN.md)
 * straight from the HTTP(S) server's `upgrade` event, before Fastify: routing, hooks and a
 * request object per upgrade cost about 70 µs of CPU per socket, a third of a join's cost
 * (docs/benchmarks.md, "Connect and join"). What Fastify did for an upgrade is done here:
 * - the origin check and the per-visitor (per-circuit) socket cap (admission.ts), refused as a
 *   plain HTTP answer with `{error}` and the security headers of any other answer (403, 429);
 * - the global HTTP limit of 1000 requests a minute per address, which counts upgrades too: the
 *   same limiter and store as every other request (@fastify/rate-limit's `createRateLimit`, in
 *   Redis when there is one), keyed the same way (server/lib/visitor.ts), 429 with
 *   `Retry-After` past it;
 * - the client address as Fastify's `request.ip` reads it under TRUST_PROXY.
 */
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { LIMITS } from '../../shared/constants.js';
import { TEXT } from '../../shared/protocol/errors.js';
import { errorForLog } from '../lib/log-error.js';
import { visitorKey } from '../lib/visitor.js';
import type { SecurityHeaderWriter } from '../plugins/security-headers.js';
import { ADMISSION_TEXT, isOriginAllowed, socketBuckets, SocketCounter } from './admission.js';
import type { Hub } from './hub.js';

export const REALTIME_PATHS = ['/chat-ws', '/ws'] as const;

/** An upgrade anywhere else: as the app answers an unknown path (server/plugins/spa.ts). */
const NOT_FOUND = 'Not found';

/**
 * Sockets are pinged this often; one that has not answered the previous ping is terminated, so
 * proxies with idle time-outs keep quiet sockets open and dead peers leave presence.
 */
export const KEEPALIVE_INTERVAL_MS = 30_000;

/** Which proxies' X-Forwarded-For is believed: what Fastify's `trustProxy` was given. */
export type TrustedProxies = boolean | string[] | ((address: string, hop: number) => boolean);

/** Who may open a socket (server/realtime/admission.ts). */
export interface RealtimeAdmission {
  allowedOrigins: readonly string[];
  maxSocketsPerAddress: number;
  maxOnionSockets: number;
  /** As given to Fastify, so that a socket's address is the one `request.ip` reports. */
  trustProxy: TrustedProxies;
}

/** The client address of `request` as Fastify's `request.ip` computes it with `trust`. */
export function clientAddressReader(trust: TrustedProxies): (request: IncomingMessage) => string {
  if (trust === false) return (request) => request.socket.remoteAddress ?? '';
  const trusts =
    trust === true ? () => true : typeof trust === 'function' ? trust : proxyAddr.compile(trust);
  return (request) => {
    const addresses = proxyAddr.all(request, trusts);
    return addresses[addresses.length - 1] ?? '';
  };
}

/**
 * A refused upgrade: a complete HTTP answer with a `{error}` body and the security headers every
 * HTTP answer carries (server/plugins/security-headers.ts), then the connection closed.
 */
export function refuseUpgrade(
  socket: Duplex,
  status: number,
  error: string,
  security: { write: SecurityHeaderWriter; host: string | undefined },
  headers: Record<string, string> = {},
): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const written = new Map<string, string>();
  security.write(
    {
      setHeader: (name, value) =>
        written.set(name.toLowerCase(), typeof value === 'object' ? value.join(', ') : `${value}`),
      removeHeader: (name) => written.delete(name.toLowerCase()),
    },
    security.host,
  );
  const body = JSON.stringify({ error });
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    'Connection: close',
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...[...written, ...Object.entries(headers)].map(([name, value]) => `${name}: ${value}`),
  ];
  socket.once('finish', () => socket.destroy());
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
}

export async function registerRealtime(
  app: FastifyInstance,
  hub: Hub,
  admission: RealtimeAdmission,
  writeSecurityHeaders: SecurityHeaderWriter,
): Promise<SocketCounter> {
  const sockets = new SocketCounter({
    perAddress: admission.maxSocketsPerAddress,
    onion: admission.maxOnionSockets,
  });
  const clientAddress = clientAddressReader(admission.trustProxy);
  // The global limiter of server/app.ts with its store; upgrades count against it as requests.
  const countRequest = app.createRateLimit();
  const websockets = new WebSocketServer({
    noServer: true,
    // Frames above the soft limit get an error frame from the hub; this hard cap stops anything
    // larger before it is buffered, closing with 1009.
    // Compression stays off: room frames are encoded once and written to the TCP socket beside
    // `ws` (ws-frame.ts), which is only in order while `ws` queues nothing of its own.
    maxPayload: LIMITS.wsHardFrameBytes,
    perMessageDeflate: false,
  });
  const alive = new WeakMap<WebSocket, boolean>();
  let closing = false;

  const accept = (
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    address: string,
    visitor: string,
  ) => {
    const path = pathOf(request.url);
    websockets.handleUpgrade(request, socket, head, (websocket) => {
      socket.off('error', destroyOnError);
      alive.set(websocket, true);
      websocket.on('pong', () => alive.set(websocket, true));
      hub.attach(websocket, address, path, socket as Socket, visitor);
    });
  };

  const refuse = (
    request: IncomingMessage,
    socket: Duplex,
    status: number,
    error: string,
    headers?: Record<string, string>,
  ) =>
    refuseUpgrade(
      socket,
      status,
      error,
      { write: writeSecurityHeaders, host: request.headers.host },
      headers,
    );

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node removes its own listeners from an upgraded connection: until `ws` adds its own, a
    // reset must not become an uncaught error.
    socket.on('error', destroyOnError);
    const path = pathOf(request.url);
    if (!(REALTIME_PATHS as readonly string[]).includes(path)) {
      refuse(request, socket, 404, NOT_FOUND);
      return;
    }
    if (closing) {
      refuse(request, socket, 503, TEXT.serviceUnavailable);
      return;
    }
    const { origin, host } = request.headers;
    if (!isOriginAllowed(origin, host, admission.allowedOrigins)) {
      refuse(request, socket, 403, ADMISSION_TEXT.badOrigin);
      return;
    }
    const address = clientAddress(request);
    const visitor = visitorKey(address, request.socket);
    if (!sockets.tryAcquire(socketBuckets(visitor, host, address), request.socket)) {
      refuse(request, socket, 429, ADMISSION_TEXT.tooManySockets);
      return;
    }
    // Only what the limiter reads: the key (visitorOfRequest) and the route's config (none here).
    const asRequest = { ip: address, raw: request, routeOptions: { config: {} } };
    countRequest(asRequest as unknown as FastifyRequest).then(
      (limit) => {
        if (!limit.isAllowed && limit.isExceeded) {
          refuse(request, socket, 429, TEXT.tooManyRequests, {
            'Retry-After': String(limit.ttlInSeconds),
          });
          return;
        }
        if (closing) refuse(request, socket, 503, TEXT.serviceUnavailable);
        else accept(request, socket, head, address, visitor);
      },
      (error: unknown) => {
        app.log.error({ err: errorForLog(error) }, 'rate limit store failed for an upgrade');
        refuse(request, socket, 500, TEXT.internalError);
      },
    );
  };
  app.server.on('upgrade', onUpgrade);

  const keepalive = setInterval(() => {
    for (const socket of websockets.clients) {
      if (alive.get(socket) === false) {
        socket.terminate();
        continue;
      }
      alive.set(socket, false);
      socket.ping();
    }
  }, KEEPALIVE_INTERVAL_MS);
  keepalive.unref();

  // On shutdown every socket hears "going away" (1001), so clients know to reconnect elsewhere.
  app.addHook('preClose', (done) => {
    closing = true;
    clearInterval(keepalive);
    app.server.off('upgrade', onUpgrade);
    hub.closeAll(1001, 'Server shutting down');
    websockets.close();
    done();
  });
  return sockets;
}

/** The path of a request target, without its query. */
function pathOf(url: string | undefined): string {
  const target = url ?? '/';
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
}

function destroyOnError(this: Duplex): void {
  this.destroy();
}
