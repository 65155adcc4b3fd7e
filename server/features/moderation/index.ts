/**
 * The moderation feature (issue 23): roles per room, the powers of moderators and admins as
 * WebSocket frames, enforcement on every process through the service events, the room's
 * moderation log. It acts on members and message ids only: the server cannot read content.
 */
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/connect.js';
import { visitorOfConnection } from '../../lib/visitor.js';
import type { Connection, ConnectionIdentity } from '../../realtime/connection.js';
import type { Hub } from '../../realtime/hub.js';
import type { RoomChannels } from '../../realtime/room-channels.js';
import type { Message } from '../../../shared/protocol/ws/chat.js';
import type { PresenceStore, RoomAdmission, RoomRow } from '../rooms/index.js';
import { ModerationEventSchema, type ModerationEvent } from './events.js';
import { registerModerationFrames } from './frames.js';
import { moderationRoutes, type ModerationCaller } from './routes.js';
import { ModerationService } from './service.js';
import { cacheSanctions } from './sanction-cache.js';
import { createModerationStore } from './store.js';

export { ModerationEventSchema, type ModerationEvent } from './events.js';
export {
  MODERATION_NOTICE,
  MODERATION_SENDER,
  MODERATION_TEXT,
  ModerationService,
} from './service.js';
export type { ModerationCaller } from './routes.js';

export interface ModerationFeatureDeps {
  db: Db;
  hub: Hub;
  channels: RoomChannels;
  presence: PresenceStore;
  now: () => number;
  getRoom: (idOrSecureId: string) => Promise<RoomRow>;
  setLocked: (roomId: string, locked: boolean) => Promise<RoomRow | null>;
  invalidateRoom: (roomId: string) => void;
  leave: (connection: Connection) => Promise<void>;
  findMessage: (roomId: string, messageId: string) => Promise<Message | null>;
  deleteMessage: (roomId: string, messageId: string) => Promise<boolean>;
  postSystemMessage: (roomId: string, text: string) => Promise<unknown>;
  /** Publishes on the service events; every process hands the event back to `apply`. */
  publish: (event: ModerationEvent) => Promise<void>;
  /**
   * True when this process is the only one (no Redis): every sanction is written through it, so
   * a room's sanctions can be held in memory instead of asked for on every join.
   */
  isOnlyProcess: boolean;
  audit: (actor: string, detail: Record<string, unknown>) => Promise<void>;
  callerOf: (request: FastifyRequest) => Promise<ModerationCaller>;
  /** Ends the room's grants but those of the sockets in it (kick, ban, lock). */
  revokeAbsentGrants?: (roomId: string, removed?: readonly string[]) => Promise<unknown>;
  /** A socket was muted: it leaves its room's voice call. */
  silenced?: (connection: Connection, roomId: string) => Promise<void>;
}

export function createModerationFeature(deps: ModerationFeatureDeps) {
  const service = new ModerationService({
    store: deps.isOnlyProcess
      ? cacheSanctions(createModerationStore(deps.db), deps.now)
      : createModerationStore(deps.db),
    presence: deps.presence,
    now: deps.now,
    getRoom: deps.getRoom,
    setLocked: deps.setLocked,
    findMessage: deps.findMessage,
    deleteMessage: deps.deleteMessage,
    postSystemMessage: deps.postSystemMessage,
    publish: deps.publish,
    audit: deps.audit,
    ...(deps.revokeAbsentGrants ? { revokeAbsentGrants: deps.revokeAbsentGrants } : {}),
  });
  const frames = registerModerationFrames({
    hub: deps.hub,
    channels: deps.channels,
    presence: deps.presence,
    service,
    leave: deps.leave,
    invalidateRoom: deps.invalidateRoom,
    isRoomLocked: async (roomId) => (await deps.getRoom(roomId)).isLocked,
    ...(deps.silenced ? { silenced: deps.silenced } : {}),
    now: deps.now,
  });
  return {
    service,
    /** The rooms feature's admission hook for join_room. */
    admit: async (
      connection: Connection,
      room: RoomRow,
      identity: ConnectionIdentity | null,
    ): Promise<RoomAdmission> => service.admit(room, identity, visitorOfConnection(connection)),
    joined: frames.joined,
    /** Acts on a moderation service event for this process's sockets. */
    apply: async (event: unknown) => {
      const parsed = ModerationEventSchema.safeParse(event);
      if (parsed.success) await frames.apply(parsed.data);
    },
    routes: moderationRoutes({ service, getRoom: deps.getRoom, callerOf: deps.callerOf }),
  };
}
