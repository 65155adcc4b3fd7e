/**
 * Who is in which room. The memory store serves one process; a Redis store with heartbeats and
 * TTLs shares it between processes (REDIS_URL).
 */
import type { ModerationRole } from '../../../shared/moderation/permissions.js';
import type { RoomUser } from '../../../shared/protocol/ws/chat.js';

/**
 * A member as the server keeps it. `keyId`, `moderationRole` and `addressTag` (a keyed hash of an
 * anonymous visitor's address) are for moderation on any process and never go to clients:
 * {@link toRoomUser} strips them.
 */
export type PresenceMember = RoomUser & {
  roomId: string;
  keyId?: string | null;
  moderationRole?: ModerationRole;
  addressTag?: string | null;
};

/** The member as other members see it (spec 000 §3 "Room user"). */
export function toRoomUser(member: PresenceMember): RoomUser {
  const {
    roomId: _roomId,
    keyId: _keyId,
    moderationRole: _moderationRole,
    addressTag: _addressTag,
    ...user
  } = member;
  return user;
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

  async setStatus(roomId: string, nodeId: string, status: RoomUser['status']): Promise<void> {
    const member = this.rooms.get(roomId)?.get(nodeId);
    if (member) {
      member.status = status;
      member.lastSeen = new Date().toISOString();
    }
  }

  async setVoiceActive(roomId: string, nodeId: string, isVoiceActive: boolean): Promise<boolean> {
    const member = this.rooms.get(roomId)?.get(nodeId);
    if (member) member.isVoiceActive = isVoiceActive;
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
