/**
 * Room membership over the socket (spec 000 §7): join_room, typing, request_user_list, and
 * leaving on disconnect. Presence lives in a PresenceStore; events go through RoomChannels.
 */
import { z } from 'zod';
import { isCallsign } from '../../../shared/ids.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import { displayRole, type ModerationRole } from '../../../shared/moderation/permissions.js';
import type { Message } from '../../../shared/protocol/ws/chat.js';
import { AppError } from '../../errors.js';
import type { Connection, ConnectionIdentity } from '../../realtime/connection.js';
import type { Hub } from '../../realtime/hub.js';
import type { RoomChannels } from '../../realtime/room-channels.js';
import type { SharedFrame } from '../../realtime/ws-frame.js';
import type { KeyBundleStore } from './key-relay.js';
import { KEPT_LIST_MIN_MEMBERS, MemberListBytes } from './member-list.js';
import { roomUserJson, toRoomUser, type PresenceMember, type PresenceStore } from './presence.js';
import { ROOM_TEXT, type RoomService } from './service.js';
import type { RoomRow } from './store.js';

export const JOIN_TEXT = {
  invalidCallsign: 'Invalid callsign',
} as const;

export interface RoomFrameDeps {
  hub: Hub;
  rooms: RoomService;
  presence: PresenceStore;
  channels: RoomChannels;
  bundles: KeyBundleStore;
  /** The key holder behind a session token, or null. */
  authenticate: (token: string) => Promise<ConnectionIdentity | null>;
  /** The room's unexpired messages (the messages feature). */
  history: (roomId: string) => Promise<Message[]>;
  now: () => number;
  /**
   * Moderation's say on a join (server/features/moderation): throws when the member is banned or
   * in a kick cool-down; otherwise the member's role and what identifies them for moderation.
   */
  admit?: (
    connection: Connection,
    room: RoomRow,
    identity: ConnectionIdentity | null,
  ) => Promise<RoomAdmission>;
  /** Runs once the member is in (room_joined and key_bundles sent). */
  joined?: (connection: Connection, room: RoomRow, admission: RoomAdmission) => void;
  /**
   * Runs when a socket has left `roomId` for any reason (another room, kick, ban, socket closed),
   * after its presence is gone and before the room hears user_left (the voice call it was in).
   */
  left?: (connection: Connection, roomId: string) => Promise<void>;
}

/** What moderation says about a member entering a room. */
export interface RoomAdmission {
  role: ModerationRole;
  /** Keyed hash of an anonymous visitor's address (null for key holders). */
  addressTag: string | null;
  /** When a mute of this member in this room ends (ms), or null. */
  mutedUntil: number | null;
}

const toUser = toRoomUser;

/** How every `new_message` frame begins (the messages feature and the Redis store build them). */
const NEW_MESSAGE_HEAD = '{"type":"new_message","message":';

const NewMessageIdSchema = z.object({ message: z.object({ id: z.string() }) });

/**
 * True when `frame` is a `new_message` whose message is in `ids`. Read only for the few frames
 * held while a member joins.
 */
function isNewMessageIn(frame: SharedFrame, ids: ReadonlySet<string>): boolean {
  if (ids.size === 0 || !frame.text.startsWith(NEW_MESSAGE_HEAD)) return false;
  const parsed = NewMessageIdSchema.safeParse(JSON.parse(frame.text));
  return parsed.success && ids.has(parsed.data.message.id);
}

export function registerRoomFrames(deps: RoomFrameDeps): {
  leave: (connection: Connection, options?: { keepGrant?: boolean }) => Promise<void>;
  publishUserList: (roomId: string) => Promise<number>;
} {
  const { hub, rooms, presence, channels } = deps;

  const listBytes = new MemberListBytes();

  /** The whole member list, to one connection (a newcomer, or `request_user_list`). */
  const sendUserList = (connection: Connection, roomId: string, members: PresenceMember[]) => {
    // Written out by hand around each entry's kept JSON (roomUserJson): the same text as
    // JSON.stringify of the frame. A large room's entries are kept as bytes (member-list.ts).
    const head = `{"type":"user_list_update","roomId":${JSON.stringify(roomId)},"users":[`;
    const tail = `],"timestamp":"${new Date(deps.now()).toISOString()}"}`;
    if (members.length >= KEPT_LIST_MIN_MEMBERS) {
      connection.sendParts(head, listBytes.entries(roomId, members), tail);
    } else {
      connection.sendRaw(head + members.map(roomUserJson).join(',') + tail);
    }
  };

  /**
   * The whole member list, to every member of the room. Joins and leaves go out as deltas; this is
   * for a change inside members' entries that has no delta of its own (a voice call's
   * `isVoiceActive`), which happens a few times per call, not per join.
   */
  const publishUserList = async (roomId: string) => {
    const users = (await presence.list(roomId)).map(toUser);
    await channels.publish(roomId, {
      type: 'user_list_update',
      roomId,
      users,
      timestamp: new Date(deps.now()).toISOString(),
    });
    return users.length;
  };

  /**
   * The socket leaves its room, for any reason: presence, key bundle, channel, voice call and its
   * room grant go (a grant ends with its socket's stay, DESIGN.md principle 9), then the room
   * hears user_left. `keepGrant`: a re-join of the same room keeps the grant it hands back.
   */
  const leave = async (connection: Connection, options: { keepGrant?: boolean } = {}) => {
    const roomId = connection.roomId;
    if (!roomId) return;
    connection.roomId = null;
    try {
      if (!options.keepGrant) await rooms.revokeGrant(roomId, connection.nodeId);
      await presence.leave(roomId, connection.nodeId);
      await deps.bundles.remove(roomId, connection.nodeId);
    } finally {
      // Even while Redis is away: the socket stops hearing the room on this process.
      await channels.remove(roomId, connection);
    }
    await deps.left?.(connection, roomId);
    const memberCount = (await presence.list(roomId)).length;
    if (memberCount < KEPT_LIST_MIN_MEMBERS) listBytes.drop(roomId);
    await channels.publish(roomId, {
      type: 'user_left',
      roomId,
      username: connection.username ?? '',
      nodeId: connection.nodeId,
      memberCount,
    });
  };

  hub.on('join_room', async (connection, frame) => {
    let identity: ConnectionIdentity | null = null;
    if (frame.sessionToken) {
      identity = await deps.authenticate(frame.sessionToken);
      if (!identity) throw new AppError('SESSION_INVALID', 401, TEXT.sessionInvalid);
    }
    const username = identity ? identity.username : frame.username;
    if (!identity && !isCallsign(username)) {
      throw new AppError('INVALID_CALLSIGN', 400, JOIN_TEXT.invalidCallsign);
    }
    const room = await rooms.getRow(frame.roomId);
    // How the member gets in is shown to the room (`entry`): a key that skipped the code is marked.
    const entry = await rooms.entry(room, {
      isKeyHolder: identity !== null,
      accessToken: frame.accessToken ?? null,
    });
    if (entry === null) throw new AppError('ROOM_LOCKED', 403, ROOM_TEXT.accessCodeRequired);

    const admission: RoomAdmission = deps.admit
      ? await deps.admit(connection, room, identity)
      : {
          role: identity?.level === 'admin' ? 'service_admin' : 'member',
          addressTag: null,
          mutedUntil: null,
        };

    if (connection.roomId) await leave(connection, { keepGrant: connection.roomId === room.id });
    // The room identity is fixed here, for as long as the socket stays (session_auth cannot
    // change it: server/features/dm).
    connection.identity = identity;
    if (identity) connection.proved(identity.keyId);
    connection.username = username;
    connection.roomId = room.id;
    const at = new Date(deps.now()).toISOString();
    const member: PresenceMember = {
      roomId: room.id,
      nodeId: connection.nodeId,
      username,
      status: 'online',
      role: displayRole(admission.role),
      isAuthenticated: identity !== null,
      keyId: identity?.keyId ?? null,
      moderationRole: admission.role,
      addressTag: admission.addressTag,
      connectionTime: new Date(connection.connectedAt).toISOString(),
      lastSeen: at,
      isVoiceActive: false,
      entry,
    };
    await presence.join(member);
    // Subscribed before the list is read: every change after the read reaches the newcomer as a
    // delta (user_joined / user_left). The room's frames are held until the list is sent, so the
    // deltas come after it and apply on top of it, across processes too.
    //
    // Messages (docs/protocol.md "What a member receives"): every message stored before the
    // history is read is in room_joined (while it lasts, the newest 500), and every one stored
    // after the subscription is confirmed is published to a channel this process hears, so it
    // comes live, after room_joined. One stored in between is in both: its held new_message is
    // dropped, so that each message reaches the joiner once.
    connection.holdRoomFrames();
    let members: PresenceMember[];
    let inHistory: ReadonlySet<string> = new Set();
    try {
      await channels.add(room.id, connection);
      const [messages, accessToken] = await Promise.all([
        deps.history(room.id),
        rooms.issueGrant(room.id, connection.nodeId),
      ]);
      inHistory = new Set(messages.map((message) => message.id));
      members = await presence.list(room.id);
      connection.send({
        type: 'room_joined',
        roomId: room.id,
        nodeId: connection.nodeId,
        messages,
        memberCount: members.length,
        accessToken,
      });
      // The newcomer alone gets the whole list; the others get the one new entry (user_joined).
      sendUserList(connection, room.id, members);
    } finally {
      connection.releaseRoomFrames((frame) => isNewMessageIn(frame, inHistory));
    }
    // Closed or removed while joining: its leave may have run before the grant was issued.
    if (!connection.isOpen || connection.roomId !== room.id) {
      await rooms.revokeGrant(room.id, connection.nodeId);
      return;
    }
    // The newcomer learns every current member's public keys and then announces its own.
    connection.send({ type: 'key_bundles', bundles: await deps.bundles.list(room.id) });
    deps.joined?.(connection, room, admission);
    // The room hears of joins within a short window, several at once when many arrive
    // (RoomChannels.announceJoin); anything else published to the room goes out after them. The
    // entry is the newcomer's kept list entry (roomUserJson), which its successors' lists reuse.
    channels.announceJoin(room.id, {
      nodeId: connection.nodeId,
      username,
      memberCount: members.length,
      userJson: roomUserJson(member),
    });
  });

  const typing = (type: 'typing_start' | 'typing_stop') => async (connection: Connection) => {
    const roomId = connection.roomId;
    if (!roomId || !connection.username) return;
    await presence.setStatus(
      roomId,
      connection.nodeId,
      type === 'typing_start' ? 'typing' : 'online',
    );
    await channels.publish(
      roomId,
      { type, username: connection.username, nodeId: connection.nodeId },
      { exclude: connection },
    );
    // No member list here: a list to every member on every keystroke burst would cost the room
    // O(members²). Browsers mark the typist in their operatives list from these frames, and the
    // status kept above makes the next list (join, leave, request) agree.
  };
  hub.on('typing_start', typing('typing_start'));
  hub.on('typing_stop', typing('typing_stop'));

  hub.on('request_user_list', async (connection) => {
    const roomId = connection.roomId;
    if (!roomId) throw new AppError('NOT_IN_ROOM', 400, 'Join a room first');
    // The joins the room has not heard of yet go out first.
    await channels.flush(roomId);
    sendUserList(connection, roomId, await presence.list(roomId));
  });

  hub.onDisconnect((connection) => leave(connection));
  return { leave, publishUserList };
}
