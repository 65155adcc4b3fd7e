/**
 * Moderation over the socket: the power frames, the mute guard, and what each process does to its
 * own sockets when a moderation event arrives (remove from the room, mute, role change, lock).
 */
import { displayRole, type ModerationRole } from '../../../shared/moderation/permissions.js';
import { AppError } from '../../errors.js';
import type { Connection } from '../../realtime/connection.js';
import type { Hub } from '../../realtime/hub.js';
import type { RoomChannels } from '../../realtime/room-channels.js';
import {
  toRoomUser,
  type PresenceStore,
  type RoomAdmission,
  type RoomRow,
} from '../rooms/index.js';
import type { ModerationEvent } from './events.js';
import { MODERATION_TEXT, type Actor, type ModerationService } from './service.js';

/** What this process knows about one of its sockets in its room. */
interface LocalState {
  roomId: string;
  role: ModerationRole;
  mutedUntil: number | null;
  /** The sanction subject of an anonymous socket (`addr:<tag>` of its visitor), else null. */
  visitorSubject: string | null;
}

export interface ModerationFrameDeps {
  hub: Hub;
  channels: RoomChannels;
  presence: PresenceStore;
  service: ModerationService;
  /** The rooms feature's leave: the socket leaves as on any leave, so sender keys rotate. */
  leave: (connection: Connection) => Promise<void>;
  invalidateRoom: (roomId: string) => void;
  isRoomLocked: (roomId: string) => Promise<boolean>;
  /** A socket was muted in `roomId`: it leaves the room's voice call. */
  silenced?: (connection: Connection, roomId: string) => Promise<void>;
  now: () => number;
}

/**
 * Everything a member can send to its room, which a mute silences: messages (an image goes out in
 * one), typing, screenshot alerts, joining the voice call and its signalling. Image uploads and
 * the voice servers (HTTP) ask {@link ModerationService.mutedUntil}. Refused with an error but
 * typing_start, dropped silently as the typist cannot act on it.
 */
export const BLOCKED_WHILE_MUTED: ReadonlySet<string> = new Set([
  'send_message',
  'typing_start',
  'security_alert',
  'voice_call_start',
  'webrtc_signaling',
  'webrtc_offer',
  'webrtc_answer',
  'webrtc_ice_candidate',
  'encryption_status',
]);

export function registerModerationFrames(deps: ModerationFrameDeps) {
  const { hub, service, now } = deps;
  const states = new WeakMap<Connection, LocalState>();

  const stateOf = (connection: Connection): LocalState | null => {
    const state = states.get(connection);
    return state && state.roomId === connection.roomId ? state : null;
  };

  const sendState = (connection: Connection, state: LocalState, isLocked: boolean) => {
    const muted = state.mutedUntil !== null && state.mutedUntil > now();
    connection.send({
      type: 'moderation_state',
      roomId: state.roomId,
      role: state.role,
      isLocked,
      mutedUntil:
        muted && state.mutedUntil !== null ? new Date(state.mutedUntil).toISOString() : null,
    });
  };

  /** Runs once a member is in the room: remember their role and mute, and tell them. */
  const joined = (connection: Connection, room: RoomRow, admission: RoomAdmission) => {
    const state: LocalState = {
      roomId: room.id,
      role: admission.role,
      mutedUntil: admission.mutedUntil,
      visitorSubject:
        connection.identity === null && admission.addressTag !== null
          ? `addr:${admission.addressTag}`
          : null,
    };
    states.set(connection, state);
    sendState(connection, state, room.isLocked);
  };

  // The server drops a muted member's messages: they never reach the room.
  hub.use((connection, type) => {
    if (!BLOCKED_WHILE_MUTED.has(type)) return true;
    const state = stateOf(connection);
    if (!state || state.mutedUntil === null) return true;
    if (state.mutedUntil <= now()) {
      state.mutedUntil = null;
      return true;
    }
    if (type !== 'typing_start')
      connection.send({
        type: 'error',
        message: MODERATION_TEXT.muted(state.mutedUntil),
        frameType: type,
      });
    return false;
  });

  const actorOf = (connection: Connection): Actor => {
    if (!connection.roomId || !connection.username)
      throw new AppError('NOT_IN_ROOM', 400, MODERATION_TEXT.notInRoom);
    return {
      roomId: connection.roomId,
      nodeId: connection.nodeId,
      username: connection.username,
      keyId: connection.identity?.keyId ?? null,
      level: connection.identity?.level ?? null,
    };
  };

  hub.on('kick_member', (connection, frame) => service.kick(actorOf(connection), frame.nodeId));
  hub.on('mute_member', (connection, frame) =>
    service.mute(actorOf(connection), frame.nodeId, frame.minutes),
  );
  hub.on('unmute_member', (connection, frame) => service.unmute(actorOf(connection), frame.nodeId));
  hub.on('delete_message', (connection, frame) =>
    service.deleteMessage(actorOf(connection), frame.messageId),
  );
  hub.on('ban_member', (connection, frame) =>
    service.ban(actorOf(connection), frame.nodeId, frame.minutes),
  );
  hub.on('unban_member', (connection, frame) => service.unban(actorOf(connection), frame.banId));
  hub.on('lock_room', (connection) => service.setLock(actorOf(connection), true));
  hub.on('unlock_room', (connection) => service.setLock(actorOf(connection), false));
  hub.on('appoint_moderator', (connection, frame) =>
    service.appoint(actorOf(connection), frame.nodeId),
  );
  hub.on('remove_moderator', (connection, frame) =>
    service.dismiss(actorOf(connection), {
      ...(frame.nodeId ? { nodeId: frame.nodeId } : {}),
      ...(frame.keyId ? { keyId: frame.keyId } : {}),
    }),
  );

  /** This process's sockets in the room that an event names. */
  const matching = (
    roomId: string,
    target: { subject: string | null; nodeId: string | null },
  ): Connection[] =>
    [...deps.channels.localMembers(roomId)].filter((connection) => {
      if (connection.roomId !== roomId) return false;
      if (target.nodeId) return connection.nodeId === target.nodeId;
      if (target.subject === null) return false;
      // An anonymous visitor is every anonymous socket of theirs in the room (their visitor key:
      // address, IPv6 /64 or onion circuit), as the sanction stored against them is.
      if (target.subject.startsWith('addr:'))
        return states.get(connection)?.visitorSubject === target.subject;
      return `key:${connection.identity?.keyId}` === target.subject;
    });

  const publishUserList = async (roomId: string) => {
    await deps.channels.publish(roomId, {
      type: 'user_list_update',
      roomId,
      users: (await deps.presence.list(roomId)).map(toRoomUser),
      timestamp: new Date(now()).toISOString(),
    });
  };

  /** Acts on this process's sockets; every process runs it for every moderation event. */
  const apply = async (event: ModerationEvent): Promise<void> => {
    switch (event.op) {
      case 'remove':
        for (const connection of matching(event.roomId, event)) {
          connection.send({
            type: 'removed_from_room',
            roomId: event.roomId,
            action: event.action,
            until: event.until === null ? null : new Date(event.until).toISOString(),
            message: event.message,
          });
          states.delete(connection);
          // The normal leave: presence, key bundle and channel go, the room hears user_left
          // and every remaining member's client rotates its sender key.
          await deps.leave(connection);
        }
        break;
      case 'mute':
      case 'unmute': {
        const isLocked = await deps.isRoomLocked(event.roomId);
        for (const connection of matching(event.roomId, event)) {
          const state = stateOf(connection);
          if (!state) continue;
          state.mutedUntil = event.op === 'mute' ? event.until : null;
          sendState(connection, state, isLocked);
          if (event.op === 'mute') await deps.silenced?.(connection, event.roomId);
        }
        break;
      }
      case 'role': {
        const targets = matching(event.roomId, { subject: `key:${event.keyId}`, nodeId: null });
        if (targets.length === 0) break;
        const members = await deps.presence.list(event.roomId);
        const isLocked = await deps.isRoomLocked(event.roomId);
        for (const connection of targets) {
          const state = stateOf(connection);
          if (!state) continue;
          state.role = event.role;
          const member = members.find((entry) => entry.nodeId === connection.nodeId);
          if (member)
            await deps.presence.join({
              ...member,
              role: displayRole(event.role),
              moderationRole: event.role,
            });
          sendState(connection, state, isLocked);
        }
        await publishUserList(event.roomId);
        break;
      }
      case 'lock':
        deps.invalidateRoom(event.roomId);
        for (const connection of deps.channels.localMembers(event.roomId)) {
          const state = stateOf(connection);
          if (state) sendState(connection, state, event.isLocked);
        }
        break;
    }
  };

  return { joined, apply };
}
