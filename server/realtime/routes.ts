/** Mounts the hub on `/chat-ws` and `/ws` (both accept every frame type, DESIGN.md). */
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import { LIMITS } from '../../shared/constants.js';
import type { Hub } from './hub.js';

export const REALTIME_PATHS = ['/chat-ws', '/ws'] as const;

export async function registerRealtime(app: FastifyInstance, hub: Hub): Promise<void> {
  await app.register(websocket, {
    // Frames above the soft limit get an error frame from the hub; this hard cap stops anything
    // larger before it is buffered, closing with 1009.
    options: { maxPayload: LIMITS.wsHardFrameBytes, perMessageDeflate: false },
    // On shutdown every socket hears "going away" (1001), so clients know to reconnect elsewhere.
    preClose(done) {
      hub.closeAll(1001, 'Server shutting down');
      this.websocketServer.close();
      done();
    },
  });
  for (const path of REALTIME_PATHS) {
    app.get(path, { websocket: true, schema: { hide: true } }, (socket, request) => {
      hub.attach(socket, request.ip, path);
    });
  }
}
