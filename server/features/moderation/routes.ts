/** `GET /api/rooms/:id/moderation-log`: the room's moderation log, for its admins. */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBodySchema } from '../../../shared/protocol/http/error-body.js';
import { ModerationLogResponseSchema } from '../../../shared/protocol/http/moderation.js';
import { RoomIdParamsSchema } from '../../../shared/protocol/http/rooms.js';
import type { RoomRow } from '../rooms/index.js';
import type { ModerationService } from './service.js';

/** Who calls: a key holder, an admin console session, or nobody. */
export type ModerationCaller =
  { kind: 'key'; keyId: string; level: string } | { kind: 'admin-session' } | null;

export interface ModerationRouteDeps {
  service: ModerationService;
  getRoom: (idOrSecureId: string) => Promise<RoomRow>;
  callerOf: (request: FastifyRequest) => Promise<ModerationCaller>;
}

export function moderationRoutes(deps: ModerationRouteDeps): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/api/rooms/:id/moderation-log',
      {
        schema: {
          tags: ['rooms'],
          summary:
            "A room's moderation log (30 days), moderators and active bans; the room's admins and service admins only",
          params: RoomIdParamsSchema,
          response: {
            200: ModerationLogResponseSchema,
            403: ErrorBodySchema,
            404: ErrorBodySchema,
          },
        },
      },
      async (request) => {
        const room = await deps.getRoom(request.params.id);
        return deps.service.logFor(room, await deps.callerOf(request));
      },
    );
  };
}
