/** The rooms feature: rooms, their access and timers, and membership over the socket. */
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/connect.js';
import { MemoryRateLimiter, type RateLimiter } from '../../lib/rate-limiter.js';
import type { Connection, ConnectionIdentity } from '../../realtime/connection.js';
import type { Hub } from '../../realtime/hub.js';
import type { RoomChannels } from '../../realtime/room-channels.js';
import type { Message } from '../../../shared/protocol/ws/chat.js';
import { MemoryAccessGrantStore, type AccessGrantStore } from './access-grants.js';
import { registerRoomFrames, type RoomAdmission } from './frames.js';
import { MemoryKeyBundleStore, registerKeyRelay, type KeyBundleStore } from './key-relay.js';
import { MemoryPresenceStore, type PresenceStore } from './presence.js';
import { roomRoutes } from './routes.js';
import { RoomService } from './service.js';
import { createRoomStore, type RoomRow } from './store.js';

export {
  RoomService,
  DEFAULT_ROOM_NAME,
  ROOM_CACHE_TTL_MS,
  ROOM_TEXT,
  toRoom,
  type RoomServiceDeps,
} from './service.js';
export {
  MemoryPresenceStore,
  toRoomUser,
  type PresenceStore,
  type PresenceMember,
} from './presence.js';
export type { RoomAdmission } from './frames.js';
export {
  MemoryAccessGrantStore,
  type AccessGrant,
  type AccessGrantStore,
} from './access-grants.js';
export { ROOM_ACCESS_HEADER, ROOM_CREATION_BUSY } from './routes.js';
export { MemoryKeyBundleStore, type KeyBundleStore, type BundleEntry } from './key-relay.js';
export type { RoomStore, RoomRow } from './store.js';

export interface RoomsFeatureDeps {
  db: Db;
  hub: Hub;
  channels: RoomChannels;
  now: () => number;
  authenticate: (token: string) => Promise<ConnectionIdentity | null>;
  isKeyHolder: (request: FastifyRequest) => Promise<boolean>;
  history: (roomId: string) => Promise<Message[]>;
  purgeMessages: (roomId: string) => Promise<void>;
  presence?: PresenceStore;
  grants?: AccessGrantStore;
  bundles?: KeyBundleStore;
  /** Access-code attempts per client and room in 15 minutes. */
  attemptLimiter?: RateLimiter;
  roomCreationsPerTenMinutes?: number;
  /** Rooms visitors without a key may create together in ten minutes. */
  anonymousCreationLimiter?: RateLimiter;
  /** Moderation's say on joins (see RoomFrameDeps). */
  admit?: (
    connection: Connection,
    room: RoomRow,
    identity: ConnectionIdentity | null,
  ) => Promise<RoomAdmission>;
  joined?: (connection: Connection, room: RoomRow, admission: RoomAdmission) => void;
  /** A socket left a room, for any reason (see RoomFrameDeps). */
  left?: (connection: Connection, roomId: string) => Promise<void>;
  /** Ends a destroyed room's voice call. */
  endCalls?: (roomId: string) => Promise<void>;
  /** The caller of an HTTP request: a key holder's id and level, or null. */
  keyOf: (request: FastifyRequest) => Promise<{ keyId: string; level: string } | null>;
  /** May this caller set or clear the room's timer (its creator, moderators, service admins)? */
  mayManageTimer: (room: RoomRow, request: FastifyRequest) => Promise<boolean>;
}

/** Rooms all visitors without a key may create together in ten minutes, by default. */
export const ANONYMOUS_ROOM_CREATIONS = 60;

/** Access-code attempts allowed per client and room in 15 minutes. */
export const ACCESS_ATTEMPTS = 10;

export function createRoomsFeature(deps: RoomsFeatureDeps) {
  const presence = deps.presence ?? new MemoryPresenceStore();
  const bundles = deps.bundles ?? new MemoryKeyBundleStore();
  const service = new RoomService({
    store: createRoomStore(deps.db),
    now: deps.now,
    grants: deps.grants ?? new MemoryAccessGrantStore(deps.now),
    presence,
    channels: deps.channels,
    purgeMessages: deps.purgeMessages,
    attemptLimiter:
      deps.attemptLimiter ?? new MemoryRateLimiter(ACCESS_ATTEMPTS, 15 * 60_000, deps.now),
    purgeBundles: (roomId) => bundles.purgeRoom(roomId),
    ...(deps.endCalls ? { endCalls: deps.endCalls } : {}),
  });
  const frames = registerRoomFrames({
    hub: deps.hub,
    rooms: service,
    presence,
    channels: deps.channels,
    bundles,
    authenticate: deps.authenticate,
    history: deps.history,
    now: deps.now,
    ...(deps.admit ? { admit: deps.admit } : {}),
    ...(deps.joined ? { joined: deps.joined } : {}),
    ...(deps.left ? { left: deps.left } : {}),
  });
  registerKeyRelay({ hub: deps.hub, channels: deps.channels, bundles, presence, now: deps.now });
  return {
    service,
    presence,
    leave: frames.leave,
    publishUserList: frames.publishUserList,
    routes: roomRoutes({
      service,
      presence,
      isKeyHolder: deps.isKeyHolder,
      keyOf: deps.keyOf,
      mayManageTimer: deps.mayManageTimer,
      creationsPerTenMinutes: deps.roomCreationsPerTenMinutes ?? 10,
      anonymousCreations:
        deps.anonymousCreationLimiter ??
        new MemoryRateLimiter(ANONYMOUS_ROOM_CREATIONS, 10 * 60_000, deps.now),
    }),
  };
}
