/** Room HTTP routes (spec 000 §7). */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBodySchema } from '../../../shared/protocol/http/error-body.js';
import {
  ConnectedNodesQuerySchema,
  ConnectedNodesSchema,
  CreateRoomRequestSchema,
  DefaultRoomSchema,
  RoomIdParamsSchema,
  RoomListSchema,
  RoomLookupParamsSchema,
  RoomSchema,
  SelfDestructRequestSchema,
  VerifyRoomPasswordRequestSchema,
  VerifyRoomPasswordResponseSchema,
} from '../../../shared/protocol/http/rooms.js';
import { AppError } from '../../errors.js';
import type { RateLimiter } from '../../lib/rate-limiter.js';
import { visitorOfRequest } from '../../lib/visitor.js';
import type { PresenceMember, PresenceStore } from './presence.js';
import type { RoomRow } from './store.js';
import { ROOM_TEXT, type RoomService } from './service.js';

export interface RoomRouteDeps {
  service: RoomService;
  presence: PresenceStore;
  /** True when the request carries a valid key-holder session. */
  isKeyHolder: (request: FastifyRequest) => Promise<boolean>;
  /** The key holder behind the request, or null (the creator of a room it makes). */
  keyOf: (request: FastifyRequest) => Promise<{ keyId: string; level: string } | null>;
  /** May the caller set or clear this room's timer (creator, moderators, service admins)? */
  mayManageTimer: (room: RoomRow, request: FastifyRequest) => Promise<boolean>;
  /** Rooms one address may create in ten minutes. */
  creationsPerTenMinutes: number;
  /** Rooms all visitors without a key may create together in ten minutes (key `all`). */
  anonymousCreations: RateLimiter;
}

/** Said when the service-wide allowance of anonymous room creation is used up. */
export const ROOM_CREATION_BUSY = 'Too many new channels right now. Try again in a few minutes.';

/** Room access tokens travel in this header on calls that need room access. */
export const ROOM_ACCESS_HEADER = 'x-room-access';

const RoomAccessHeadersSchema = z.looseObject({
  [ROOM_ACCESS_HEADER]: z.string().min(1).max(200).optional(),
});

export function roomRoutes({
  service,
  presence,
  isKeyHolder,
  keyOf,
  mayManageTimer,
  creationsPerTenMinutes,
  anonymousCreations,
}: RoomRouteDeps): FastifyPluginAsync {
  /** The members of the rooms a key alone lets its holder into (rooms gone meanwhile drop out). */
  const withoutClosedRooms = async (members: PresenceMember[]) => {
    const roomIds = [...new Set(members.map((member) => member.roomId))];
    const open = new Set<string>();
    for (const roomId of roomIds) {
      const row = await service.getRow(roomId).catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'ROOM_NOT_FOUND') return null;
        throw error;
      });
      if (row && (await service.mayEnter(row, { isKeyHolder: true, accessToken: null })))
        open.add(roomId);
    }
    return members.filter((member) => open.has(member.roomId));
  };

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
      {
        schema: {
          tags: ['rooms'],
          summary: 'Rooms: open rooms for everyone, locked rooms too for key holders',
          response: { 200: RoomListSchema },
        },
      },
      async (request) => service.listRooms({ includeLocked: await isKeyHolder(request) }),
    );

    app.post(
      '/api/rooms',
      {
        config: { rateLimit: { max: creationsPerTenMinutes, timeWindow: '10 minutes' } },
        schema: {
          tags: ['rooms'],
          summary: 'Create a room; non-public levels need an access code (SHA-256 hex)',
          body: CreateRoomRequestSchema,
          response: { 200: RoomSchema, 400: ErrorBodySchema, 429: ErrorBodySchema },
        },
      },
      async (request) => {
        // Per address above (route rate limit); visitors without a key also share a global cap.
        const creator = await keyOf(request);
        if (!creator && !(await anonymousCreations.hit('all')))
          throw new AppError('ROOM_CREATION_BUSY', 429, ROOM_CREATION_BUSY);
        const room = await service.createRoom(request.body, creator?.keyId ?? null);
        request.log.info({ roomId: room.id, level: room.securityLevel }, 'room created');
        return room;
      },
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

    app.post(
      '/api/rooms/:id/verify-password',
      {
        schema: {
          tags: ['rooms'],
          summary:
            'Check a room access code (SHA-256 hex); a valid one returns an access token for join_room',
          params: RoomIdParamsSchema,
          body: VerifyRoomPasswordRequestSchema,
          response: {
            200: VerifyRoomPasswordResponseSchema,
            404: ErrorBodySchema,
            429: ErrorBodySchema,
          },
        },
      },
      (request) =>
        service.verifyAccessCode(
          request.params.id,
          request.body.password,
          visitorOfRequest(request),
        ),
    );

    app.patch(
      '/api/rooms/:id/self-destruct',
      {
        schema: {
          tags: ['rooms'],
          summary:
            "Set (minutes) or clear (null) the self-destruct timer; the room's creator, moderators and service admins only",
          params: RoomIdParamsSchema,
          headers: RoomAccessHeadersSchema,
          body: SelfDestructRequestSchema,
          response: {
            200: RoomSchema,
            400: ErrorBodySchema,
            403: ErrorBodySchema,
            404: ErrorBodySchema,
          },
        },
      },
      async (request) => {
        const room = await service.setSelfDestruct(
          request.params.id,
          request.body.selfDestructTimer,
          (row) => mayManageTimer(row, request),
        );
        request.log.info({ roomId: room.id, minutes: room.selfDestructTimer }, 'room timer set');
        return room;
      },
    );

    app.get(
      '/api/connected-ips',
      {
        schema: {
          tags: ['rooms'],
          summary:
            'Connected nodes (node ids, never addresses): of one room for whoever may enter it, of all rooms for key holders',
          querystring: ConnectedNodesQuerySchema,
          headers: RoomAccessHeadersSchema,
          response: { 200: ConnectedNodesSchema, 403: ErrorBodySchema, 404: ErrorBodySchema },
        },
      },
      async (request) => {
        const keyHolder = await isKeyHolder(request);
        const access = {
          isKeyHolder: keyHolder,
          accessToken: request.headers[ROOM_ACCESS_HEADER] ?? null,
        };
        const room = request.query.roomId ? await service.getRow(request.query.roomId) : null;
        // Whoever may enter a room may see its nodes, before joining too (the Network Monitor
        // opens from the room's menu at once): open rooms to anyone, locked rooms to key holders
        // and holders of the room's grant. The relay-wide list stays with key holders, and leaves
        // out the rooms whose creator required the code from key holders too.
        const allowed = room ? await service.mayEnter(room, access) : keyHolder;
        if (!allowed) throw new AppError('MEMBERS_ONLY', 403, ROOM_TEXT.membersOnly);
        const members = room
          ? await presence.list(room.id)
          : await withoutClosedRooms(await presence.all());
        return {
          ips: members.map((member) => ({
            nodeId: member.nodeId,
            username: member.username,
            roomId: member.roomId,
            connectionTime: member.connectionTime,
          })),
        };
      },
    );
  };
}
