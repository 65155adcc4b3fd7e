/** Room HTTP routes (spec 000 §7): the read side. */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBodySchema } from '../../../shared/protocol/errors.js';
import {
  DefaultRoomSchema,
  RoomListSchema,
  RoomLookupParamsSchema,
  RoomSchema,
} from '../../../shared/protocol/http/rooms.js';
import type { RoomService } from './service.js';

export function roomRoutes(service: RoomService): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    app.get(
      '/api/default-room',
      {
        schema: {
          tags: ['rooms'],
          summary: 'The default public room',
          response: { 200: DefaultRoomSchema, 404: ErrorBodySchema },
        },
      },
      async () => ({ secureId: (await service.defaultRoom()).secureId }),
    );

    app.get(
      '/api/rooms',
      { schema: { tags: ['rooms'], summary: 'Every room', response: { 200: RoomListSchema } } },
      () => service.listRooms(),
    );

    app.get(
      '/api/rooms/:idOrSecureId',
      {
        schema: {
          tags: ['rooms'],
          summary: 'One room by id or 64-hex secure id; 404 means destroyed',
          params: RoomLookupParamsSchema,
          response: { 200: RoomSchema, 404: ErrorBodySchema },
        },
      },
      (request) => service.getRoom(request.params.idOrSecureId),
    );
  };
}
