/** Mounts the hub on `/chat-ws` and `/ws` (both accept every frame type, DESIGN.md). */
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebSocket } from 'ws';
import { LIMITS } from '../../shared/constants.js';
import { onionCircuitOf } from '../lib/onion-socket.js';
import { ADMISSION_TEXT, isOriginAllowed, socketBuckets, SocketCounter } from './admission.js';
import type { Hub } from './hub.js';

export const REALTIME_PATHS = ['/chat-ws', '/ws'] as const;

/**
 * Sockets are pinged this often; one that has not answered the previous ping is terminated, so
 * proxies with idle time-outs keep quiet sockets open and dead peers leave presence.
 */
export const KEEPALIVE_INTERVAL_MS = 30_000;

/** Who may open a socket (server/realtime/admission.ts). */
export interface RealtimeAdmission {
  allowedOrigins: readonly string[];
  maxSocketsPerAddress: number;
  maxOnionSockets: number;
}

export async function registerRealtime(
  app: FastifyInstance,
  hub: Hub,
  admission: RealtimeAdmission,
): Promise<SocketCounter> {
  const sockets = new SocketCounter({
    perAddress: admission.maxSocketsPerAddress,
    onion: admission.maxOnionSockets,
  });
  const alive = new WeakMap<WebSocket, boolean>();
  const upgradeResponses = new WeakMap<IncomingMessage, ServerResponse>();
  await app.register(websocket, {
    // Frames above the soft limit get an error frame from the hub; this hard cap stops anything
    // larger before it is buffered, closing with 1009.
    // Compression stays off: room frames are encoded once and written to the TCP socket beside
    // `ws` (ws-frame.ts), which is only in order while `ws` queues nothing of its own.
    options: { maxPayload: LIMITS.wsHardFrameBytes, perMessageDeflate: false },
    // On shutdown every socket hears "going away" (1001), so clients know to reconnect elsewhere.
    preClose(done) {
      clearInterval(keepalive);
      hub.closeAll(1001, 'Server shutting down');
      this.websocketServer.close();
      done();
    },
  });
  const keepalive = setInterval(() => {
    for (const socket of app.websocketServer.clients) {
      if (alive.get(socket) === false) {
        socket.terminate();
        continue;
      }
      alive.set(socket, false);
      socket.ping();
    }
  }, KEEPALIVE_INTERVAL_MS);
  keepalive.unref();

  for (const path of REALTIME_PATHS) {
    app.get(
      path,
      {
        websocket: true,
        schema: { hide: true },
        // Refused before the upgrade, as a plain HTTP answer with `{error}`.
        onRequest: (request, reply, done) => {
          const { origin, host } = request.headers;
          if (!isOriginAllowed(origin, host, admission.allowedOrigins)) {
            void reply.code(403).send({ error: ADMISSION_TEXT.badOrigin });
            return;
          }
          const buckets = socketBuckets(request.ip, host, onionCircuitOf(request.raw.socket));
          if (!sockets.tryAcquire(buckets, request.raw.socket)) {
            void reply.code(429).send({ error: ADMISSION_TEXT.tooManySockets });
            return;
          }
          upgradeResponses.set(request.raw, reply.raw);
          done();
        },
      },
      (socket, request) => {
        // The upgrade's HTTP objects are done with. @fastify/websocket leaves an error listener
        // whose closure holds the request, the reply and their logger, and Node leaves the
        // response attached to the TCP socket: together about 3 KB kept for every open
        // connection. The hub installs its own error listener below.
        socket.removeAllListeners('error');
        upgradeResponses.get(request.raw)?.detachSocket(request.raw.socket);
        upgradeResponses.delete(request.raw);
        alive.set(socket, true);
        socket.on('pong', () => alive.set(socket, true));
        hub.attach(socket, request.ip, path, request.raw.socket);
      },
    );
  }
  return sockets;
}
