/**
 * Who is in which room. The memory store serves one process; a Redis store with heartbeats and
 * TTLs shares it between processes (REDIS_URL).
 */
import type { ModerationRole } from '../../../shared/moderation/permissions.js';
import { secureIdForKey } from '../../../shared/ids.js';
import type { RoomUser } from '../../../shared/protocol/ws/chat.js';

/**
 * A member as the server keeps it. `keyId`, `moderationRole` and `addressTag` (a keyed hash of an
 * anonymous visitor's address) are for moderation on any process and never go to clients:
 * {@link toRoomUser} strips them.
 */
export type PresenceMember = Omit<RoomUser, 'secureId'> & {
  roomId: string;
  keyId?: string | null;
  moderationRole?: ModerationRole;
  addressTag?: string | null;
};

/** The member as other members see it (spec 000 §3 "Room user"). */
export function toRoomUser(member: PresenceMember): RoomUser {
  const {
    roomId: _roomId,
    keyId,
    moderationRole: _moderationRole,
    addressTag: _addressTag,
    ...user
  } = member;
  // The secure id is public by design (the DM recipient check lists them); the key id is not.
  return { ...user, secureId: keyId ? secureIdForKey(keyId) : null };
}

const userJson = new WeakMap<PresenceMember, string>();

/**
 * `JSON.stringify(toRoomUser(member))`, kept per member object: a newcomer's list repeats every
 * entry, and filling a room of 500 serialized 125,000 entries. Sound because a store never changes
 * a member object it has handed out: it stores a new one ({@link MemoryPresenceStore}; the Redis
 * store hands out new objects on every read).
 */
export function roomUserJson(member: PresenceMember): string {
  let json = userJson.get(member);
  if (json === undefined) {
    json = JSON.stringify(toRoomUser(member));
    userJson.set(member, json);
  }
  return json;
}

export interface PresenceStore {
  join(member: PresenceMember): Promise<void>;
  leave(roomId: string, nodeId: string): Promise<void>;
  setStatus(roomId: string, nodeId: string, status: RoomUser['status']): Promise<void>;
  /** Marks a member as in (or out of) the room's voice call; false when it is not a member. */
  setVoiceActive(roomId: string, nodeId: string, isVoiceActive: boolean): Promise<boolean>;
  list(roomId: string): Promise<PresenceMember[]>;
  /** Every member of every room (connected nodes). */
  all(): Promise<PresenceMember[]>;
  purgeRoom(roomId: string): Promise<void>;
}

export class MemoryPresenceStore implements PresenceStore {
  private readonly rooms = new Map<string, Map<string, PresenceMember>>();

  async join(member: PresenceMember): Promise<void> {
    let members = this.rooms.get(member.roomId);
    if (!members) {
      members = new Map();
      this.rooms.set(member.roomId, members);
    }
    members.set(member.nodeId, member);
  }

  async leave(roomId: string, nodeId: string): Promise<void> {
    const members = this.rooms.get(roomId);
    members?.delete(nodeId);
    if (members?.size === 0) this.rooms.delete(roomId);
  }

  // Changes store a new member object: one handed out is never changed (roomUserJson).
  async setStatus(roomId: string, nodeId: string, status: RoomUser['status']): Promise<void> {
    const members = this.rooms.get(roomId);
    const member = members?.get(nodeId);
    if (member) members!.set(nodeId, { ...member, status, lastSeen: new Date().toISOString() });
  }

  async setVoiceActive(roomId: string, nodeId: string, isVoiceActive: boolean): Promise<boolean> {
    const members = this.rooms.get(roomId);
    const member = members?.get(nodeId);
    if (member) members!.set(nodeId, { ...member, isVoiceActive });
    return member !== undefined;
  }

  async list(roomId: string): Promise<PresenceMember[]> {
    return [...(this.rooms.get(roomId)?.values() ?? [])];
  }

  async all(): Promise<PresenceMember[]> {
    return [...this.rooms.values()].flatMap((members) => [...members.values()]);
  }

  async purgeRoom(roomId: string): Promise<void> {
    this.rooms.delete(roomId);
  }
}
