/** Room domain logic: no Fastify, no sockets, no SQL. */
import { randomUUID } from 'node:crypto';
import { generateRoomSecureId, isRoomSecureId } from '../../../shared/ids.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import type { CreateRoomRequest, Room } from '../../../shared/protocol/http/rooms.js';
import type { RoomEntry } from '../../../shared/protocol/ws/chat.js';
import { AppError } from '../../errors.js';
import { DueSweep } from '../../lib/due-sweep.js';
import { hashSecret, verifySecret } from '../../lib/password-hash.js';
import type { RateLimiter } from '../../lib/rate-limiter.js';
import type { RoomChannels } from '../../realtime/room-channels.js';
import type { AccessGrantStore } from './access-grants.js';
import type { PresenceStore } from './presence.js';
import type { RoomRow, RoomStore } from './store.js';

/** Name of the public room created on first start. */
export const DEFAULT_ROOM_NAME = 'Public Channel';

export const ROOM_TEXT = {
  accessCodeRequired: 'Access code required',
  defaultRoomTimer: 'The public channel cannot self-destruct',
  timerNotAllowed: "Only the channel's creator, moderators and admins can set its timer",
  membersOnly: 'Only members of this channel can see its nodes',
  tooManyAttempts: 'Too many access attempts. Try again later.',
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The Room entity as clients see it; the access-code hash never leaves the server. */
export function toRoom(row: RoomRow): Room {
  return {
    id: row.id,
    secureId: row.secureId,
    name: row.name,
    isPrivate: row.isPrivate,
    securityLevel: row.securityLevel,
    selfDestructTimer: row.selfDestructTimer,
    destructionAt: row.destructionAt ? row.destructionAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    codeRequiredForKeyHolders: row.codeRequiredForKeyHolders,
  };
}

/**
 * True when entering the room needs an access code (or a key): a private or non-public room, or
 * one its admins locked (moderation).
 */
export function isLocked(room: Pick<RoomRow, 'isPrivate' | 'securityLevel' | 'isLocked'>): boolean {
  return room.isPrivate || room.securityLevel !== 'public' || room.isLocked;
}

type EntryRoom = Pick<
  RoomRow,
  'isPrivate' | 'securityLevel' | 'isLocked' | 'codeRequiredForKeyHolders'
>;

/**
 * How a caller gets into a room, or null when they may not (issue 31). Open rooms ask nothing
 * (`open`). A locked room lets key holders in without its code (`key`, spec 000 §4) unless its
 * creator required the code from everyone; then key holders, like everyone else, need a grant
 * earned with the code (`code`). In a room that admits keys, a key holder counts as `key` even when
 * they also hold a grant: the room never asked them for the code.
 */
export function roomEntry(
  room: EntryRoom,
  access: { isKeyHolder: boolean; hasGrant: boolean },
): RoomEntry | null {
  if (!isLocked(room)) return 'open';
  if (access.isKeyHolder && !room.codeRequiredForKeyHolders) return 'key';
  return access.hasGrant ? 'code' : null;
}

export interface RoomServiceDeps {
  store: RoomStore;
  now: () => number;
  grants: AccessGrantStore;
  presence: PresenceStore;
  channels: RoomChannels;
  /** Deletes a room's ephemeral messages (the messages feature). */
  purgeMessages: (roomId: string) => Promise<void>;
  /** Access-code attempts per client and room. */
  attemptLimiter: RateLimiter;
  /** Deletes a room's public key bundles. */
  purgeBundles: (roomId: string) => Promise<void>;
  /** Ends a destroyed room's voice call (its members hear it before room_destroyed). */
  endCalls?: (roomId: string) => Promise<void>;
  /**
   * How long a cached room row is reused (default {@link ROOM_CACHE_TTL_MS}). A process that is
   * the only one (no Redis) writes every change itself and keeps rows until they change.
   */
  roomCacheTtlMs?: number;
}

/**
 * How long a room row read from the database is reused (every join looks its room up). Rows
 * change only when a timer is set or the room is destroyed. This process updates its own cache on
 * both; a timer set on another process is seen within this time, and the shortest timer (30 s)
 * is far longer, so no process can let a member into a room after its destruction. A cached row
 * whose destruction time has passed is read again.
 */
export const ROOM_CACHE_TTL_MS = 5_000;
const ROOM_CACHE_CAP = 10_000;

export class RoomService {
  /** id → row and when it was read; secure id → id. */
  private readonly cache = new Map<string, { row: RoomRow; readAt: number }>();
  private readonly secureIds = new Map<string, string>();
  /** Lookups on their way to the database, by the id or secure id asked for: ten members of a
   * room joining at once make one query, not ten. */
  private readonly inFlight = new Map<string, Promise<RoomRow | null>>();

  /** Destroys due rooms, querying only once a known destruction time has passed. */
  private readonly due: DueSweep;

  constructor(private readonly deps: RoomServiceDeps) {
    this.due = new DueSweep({
      now: deps.now,
      sweep: async () => {
        await this.destroyDueRooms();
        return (await deps.store.earliestDue())?.getTime() ?? null;
      },
    });
  }

  /** Creates the default public room on first start; later starts find it. */
  async ensureDefaultRoom(): Promise<Room> {
    const existing = await this.deps.store.findDefault();
    if (existing) return toRoom(existing);
    const created = await this.deps.store.ensureDefault({
      id: randomUUID(),
      secureId: generateRoomSecureId(),
      name: DEFAULT_ROOM_NAME,
      isPrivate: false,
      securityLevel: 'public',
    });
    return toRoom(created);
  }

  async defaultRoom(): Promise<Room> {
    const row = await this.deps.store.findDefault();
    if (!row) throw new AppError('ROOM_NOT_FOUND', 404, TEXT.roomNotFound);
    return toRoom(row);
  }

  /**
   * Open rooms for everyone; key holders also see the locked rooms their key lets them into. A
   * room whose creator required the code from key holders stays unlisted for them too: the list
   * shows a key holder no more of it than a visitor.
   */
  async listRooms(options: { includeLocked: boolean }): Promise<Room[]> {
    const rows = await this.deps.store.list();
    return rows
      .filter((row) => !isLocked(row) || (options.includeLocked && !row.codeRequiredForKeyHolders))
      .map(toRoom);
  }

  /** Looks a room up by its 64-hex secure id or its id; 404 for anything else. */
  async getRoom(idOrSecureId: string): Promise<Room> {
    return toRoom(await this.getRow(idOrSecureId));
  }

  async getRow(idOrSecureId: string): Promise<RoomRow> {
    const row = await this.findRow(idOrSecureId);
    if (!row) throw new AppError('ROOM_NOT_FOUND', 404, TEXT.roomNotFound);
    return row;
  }

  /**
   * Creates a room (spec 000 §5): non-public levels need an access code, which arrives as the
   * browser's SHA-256 hex and is stored only as a slow salted hash of that.
   */
  async createRoom(request: CreateRoomRequest, creatorKeyId: string | null = null): Promise<Room> {
    const needsCode = request.isPrivate || request.securityLevel !== 'public';
    if (needsCode && !request.passwordHash)
      throw new AppError('ACCESS_CODE_REQUIRED', 400, TEXT.classifiedNeedsCode);
    const now = this.deps.now();
    const row = await this.deps.store.insert({
      id: randomUUID(),
      secureId: generateRoomSecureId(),
      name: request.name,
      isPrivate: needsCode,
      securityLevel: request.securityLevel,
      accessCodeHash:
        needsCode && request.passwordHash ? await hashSecret(request.passwordHash) : null,
      // A public room has no code to require.
      codeRequiredForKeyHolders: needsCode && request.codeRequiredForKeyHolders === true,
      selfDestructTimer: request.selfDestructTimer,
      destructionAt: request.selfDestructTimer
        ? new Date(now + request.selfDestructTimer * 60_000)
        : null,
      createdAt: new Date(now),
      creatorKeyId,
    });
    this.due.note(row.destructionAt?.getTime());
    this.remember(row);
    return toRoom(row);
  }

  /** Checks an access code under the attempt limit; a correct one buys an access grant. */
  async verifyAccessCode(secureId: string, passwordHash: string, client: string) {
    const row = await this.getRow(secureId);
    if (!(await this.deps.attemptLimiter.hit(`${client}|${row.id}`))) {
      throw new AppError('TOO_MANY_ATTEMPTS', 429, ROOM_TEXT.tooManyAttempts);
    }
    // One grant per address and room: entering the code again hands back the same one.
    const holder = `addr:${client}`;
    if (!isLocked(row))
      return { valid: true, accessToken: await this.deps.grants.issue(row.id, holder) };
    const valid =
      row.accessCodeHash !== null && (await verifySecret(passwordHash, row.accessCodeHash));
    return { valid, accessToken: valid ? await this.deps.grants.issue(row.id, holder) : null };
  }

  /** The grant of a socket (`nodeId`) that has just entered the room; the same on every re-join. */
  issueGrant(roomId: string, nodeId: string): Promise<string> {
    return this.deps.grants.issue(roomId, nodeId);
  }

  /** Ends the holder's grant for the room (its socket left, or it was removed). */
  revokeGrant(roomId: string, holder: string): Promise<void> {
    return this.deps.grants.revoke(roomId, holder);
  }

  /**
   * Ends every grant for the room whose holder is not a socket in it now: the grants of removed
   * members, of sockets gone without a leave, and those bought with the code over HTTP (kick, ban
   * and lock call it). Members present keep theirs, but for the sockets in `removed`: a kicked or
   * banned member's grant ends here and now, not when the process holding its socket hears of the
   * removal (which a process cut off from Redis does only later).
   */
  async revokeAbsentGrants(roomId: string, removed: readonly string[] = []): Promise<number> {
    const gone = new Set(removed);
    const present = new Set(
      (await this.deps.presence.list(roomId))
        .map((m) => m.nodeId)
        .filter((nodeId) => !gone.has(nodeId)),
    );
    return this.deps.grants.revokeAbsent(roomId, present);
  }

  /** The live grant behind a token (room and holder), or null. */
  findGrant(token: string) {
    return this.deps.grants.find(token);
  }

  /**
   * True for holders of a grant for this room (members), and for key holders unless the room's
   * creator required the code from them too.
   */
  async isMember(
    row: RoomRow,
    access: { isKeyHolder: boolean; accessToken: string | null },
  ): Promise<boolean> {
    if (access.isKeyHolder && !row.codeRequiredForKeyHolders) return true;
    return this.hasGrant(row, access.accessToken);
  }

  /** True when a caller may enter: see {@link roomEntry}. */
  async mayEnter(
    row: RoomRow,
    access: { isKeyHolder: boolean; accessToken: string | null },
  ): Promise<boolean> {
    return (await this.entry(row, access)) !== null;
  }

  /** How a caller enters the room (`open`, `key`, `code`), or null when they may not. */
  async entry(
    row: RoomRow,
    access: { isKeyHolder: boolean; accessToken: string | null },
  ): Promise<RoomEntry | null> {
    // The grant is looked up only when the room and the key do not already decide.
    const decided = roomEntry(row, { isKeyHolder: access.isKeyHolder, hasGrant: false });
    if (decided !== null) return decided;
    return roomEntry(row, {
      isKeyHolder: access.isKeyHolder,
      hasGrant: await this.hasGrant(row, access.accessToken),
    });
  }

  private async hasGrant(row: RoomRow, accessToken: string | null): Promise<boolean> {
    return accessToken !== null && (await this.deps.grants.isValid(accessToken, row.id));
  }

  /**
   * Sets or clears a room's self-destruct timer and tells its members. Only its creator, its
   * moderators and service admins may (`isAllowed`, from moderation): a timer destroys the room
   * for everyone.
   */
  async setSelfDestruct(
    idOrSecureId: string,
    minutes: number | null,
    isAllowed: (row: RoomRow) => Promise<boolean>,
  ): Promise<Room> {
    const row = await this.getRow(idOrSecureId);
    if (row.isDefault) throw new AppError('DEFAULT_ROOM_TIMER', 400, ROOM_TEXT.defaultRoomTimer);
    if (!(await isAllowed(row)))
      throw new AppError('TIMER_NOT_ALLOWED', 403, ROOM_TEXT.timerNotAllowed);
    const destructionAt = minutes ? new Date(this.deps.now() + minutes * 60_000) : null;
    const updated = await this.deps.store.setTimer(row.id, minutes, destructionAt);
    if (!updated) {
      this.forget(row.id);
      throw new AppError('ROOM_NOT_FOUND', 404, TEXT.roomNotFound);
    }
    this.remember(updated);
    this.due.note(updated.destructionAt?.getTime());
    const room = toRoom(updated);
    await this.deps.channels.publish(room.id, { type: 'room_updated', room });
    return room;
  }

  /** Locks or unlocks a room (moderation); false when the room is gone. */
  async setLocked(roomId: string, locked: boolean): Promise<RoomRow | null> {
    const updated = await this.deps.store.setLocked(roomId, locked);
    if (updated) this.remember(updated);
    else this.forget(roomId);
    return updated;
  }

  /** Drops this process's cached row (another process changed the room). */
  invalidate(roomId: string): void {
    this.forget(roomId);
  }

  /** The housekeeping timer's call, every second: destroys due rooms when there may be some. */
  destroyDueRoomsIfAny(): Promise<void> {
    return this.due.tick();
  }

  /**
   * Destroys every room whose time has come: the row, its messages, its grants and its member
   * list go, and members are told. The delete returns each room to one caller only, so with
   * several processes each room is destroyed exactly once.
   */
  async destroyDueRooms(): Promise<Room[]> {
    const due = await this.deps.store.deleteDue(new Date(this.deps.now()));
    for (const row of due) {
      this.forget(row.id);
      await this.deps.purgeMessages(row.id);
      await this.deps.grants.purgeRoom(row.id);
      await this.deps.presence.purgeRoom(row.id);
      await this.deps.purgeBundles(row.id);
      await this.deps.endCalls?.(row.id);
      await this.deps.channels.publish(
        row.id,
        { type: 'room_destroyed', roomId: row.id },
        { closeRoom: true },
      );
    }
    return due.map(toRoom);
  }

  private async findRow(idOrSecureId: string): Promise<RoomRow | null> {
    const isSecureId = isRoomSecureId(idOrSecureId);
    if (!isSecureId && !UUID.test(idOrSecureId)) return null;
    const now = this.deps.now();
    const id = isSecureId ? this.secureIds.get(idOrSecureId) : idOrSecureId;
    const cached = id === undefined ? undefined : this.cache.get(id);
    if (
      cached &&
      now - cached.readAt < (this.deps.roomCacheTtlMs ?? ROOM_CACHE_TTL_MS) &&
      !(cached.row.destructionAt && cached.row.destructionAt.getTime() <= now)
    ) {
      return cached.row;
    }
    const pending = this.inFlight.get(idOrSecureId);
    if (pending) return pending;
    const lookup = (async () => {
      try {
        const row = isSecureId
          ? await this.deps.store.findBySecureId(idOrSecureId)
          : await this.deps.store.findById(idOrSecureId);
        if (row) this.remember(row);
        else if (id !== undefined) this.forget(id);
        return row;
      } finally {
        this.inFlight.delete(idOrSecureId);
      }
    })();
    this.inFlight.set(idOrSecureId, lookup);
    return lookup;
  }

  private remember(row: RoomRow): void {
    this.cache.delete(row.id);
    if (this.cache.size >= ROOM_CACHE_CAP) {
      const oldest = this.cache.entries().next();
      if (!oldest.done) this.forget(oldest.value[0]);
    }
    this.cache.set(row.id, { row, readAt: this.deps.now() });
    this.secureIds.set(row.secureId, row.id);
  }

  private forget(id: string): void {
    const cached = this.cache.get(id);
    if (cached) this.secureIds.delete(cached.row.secureId);
    this.cache.delete(id);
  }
}
