/**
 * Room access grants: a random token, valid at most 12 hours, that `join_room` presents instead
 * of the access code and the image routes take in `x-room-access`. A grant has a holder: the
 * socket (nodeId) that joined, or the address that entered the code over HTTP. One holder has one
 * grant per room, handed out again on every re-join, so a join flood cannot grow the store.
 *
 * Removal removes (DESIGN.md principle 9): a socket's grant ends when the socket leaves the room
 * (another room, kick, ban, key revocation, socket closed), and kick, ban and lock end every grant
 * of the room whose holder is not a socket in it now. Kept in memory (Redis when scaled out, so a
 * revocation holds on every process at once); a restart forgets them and members enter the code
 * again.
 */
import { randomBytes } from 'node:crypto';
import { ExpiryQueue } from '../../lib/expiry-queue.js';

export const ACCESS_GRANT_TTL_MS = 12 * 60 * 60 * 1000;

/** What a grant opens, and for whom. */
export interface AccessGrant {
  roomId: string;
  /** `node_…` for a socket's grant, `addr:…` for one bought with the access code over HTTP. */
  holder: string;
}

export interface AccessGrantStore {
  /** The holder's grant for the room: its existing one (with a fresh lifetime) or a new one. */
  issue(roomId: string, holder: string): Promise<string>;
  isValid(token: string, roomId: string): Promise<boolean>;
  /** The live grant behind `token`, or null. */
  find(token: string): Promise<AccessGrant | null>;
  /** Ends the holder's grant for the room, if any. */
  revoke(roomId: string, holder: string): Promise<void>;
  /** Ends every grant for the room whose holder is not in `keep`; returns how many ended. */
  revokeAbsent(roomId: string, keep: ReadonlySet<string>): Promise<number>;
  purgeRoom(roomId: string): Promise<void>;
}

const TOKEN_BYTES = 24;
/** Random bytes for this many tokens are drawn at once: one system call instead of one each. */
const TOKENS_PER_DRAW = 128;
let randomPool = Buffer.alloc(0);
let randomOffset = 0;

/** A fresh random token (24 bytes, base64url). Each pool byte is used once. */
export function newToken(): string {
  if (randomOffset + TOKEN_BYTES > randomPool.length) {
    randomPool = randomBytes(TOKEN_BYTES * TOKENS_PER_DRAW);
    randomOffset = 0;
  }
  const token = randomPool.toString('base64url', randomOffset, randomOffset + TOKEN_BYTES);
  randomPool.fill(0, randomOffset, randomOffset + TOKEN_BYTES);
  randomOffset += TOKEN_BYTES;
  return token;
}

export class MemoryAccessGrantStore implements AccessGrantStore {
  /** token → grant, in expiry order. */
  private readonly grants: ExpiryQueue<string, AccessGrant>;
  /** `holder\nroomId` → token, in expiry order with the same lifetime. */
  private readonly byHolder: ExpiryQueue<string, string>;

  constructor(now: () => number, ttlMs = ACCESS_GRANT_TTL_MS) {
    this.grants = new ExpiryQueue(ttlMs, now);
    this.byHolder = new ExpiryQueue(ttlMs, now);
  }

  async issue(roomId: string, holder: string): Promise<string> {
    const holderKey = `${holder}\n${roomId}`;
    const existing = this.byHolder.get(holderKey);
    const token =
      existing !== undefined && this.grants.get(existing) !== undefined ? existing : newToken();
    this.grants.set(token, { roomId, holder });
    this.byHolder.set(holderKey, token);
    return token;
  }

  async isValid(token: string, roomId: string): Promise<boolean> {
    return this.grants.get(token)?.roomId === roomId;
  }

  async find(token: string): Promise<AccessGrant | null> {
    return this.grants.get(token) ?? null;
  }

  async revoke(roomId: string, holder: string): Promise<void> {
    const holderKey = `${holder}\n${roomId}`;
    const token = this.byHolder.get(holderKey);
    this.byHolder.delete(holderKey);
    if (token !== undefined) this.grants.delete(token);
  }

  async revokeAbsent(roomId: string, keep: ReadonlySet<string>): Promise<number> {
    // A full pass, as purgeRoom: kick, ban and lock are rare next to joins.
    const before = this.grants.size;
    const ends = (grant: AccessGrant) => grant.roomId === roomId && !keep.has(grant.holder);
    this.grants.deleteWhere(ends);
    this.byHolder.deleteWhere((_token, key) => {
      const split = key.lastIndexOf('\n');
      return ends({ holder: key.slice(0, split), roomId: key.slice(split + 1) });
    });
    return before - this.grants.size;
  }

  async purgeRoom(roomId: string): Promise<void> {
    this.grants.deleteWhere((grant) => grant.roomId === roomId);
    this.byHolder.deleteWhere((_token, key) => key.endsWith(`\n${roomId}`));
  }

  /** Grants held (tests and metrics). */
  get size(): number {
    return this.grants.size;
  }
}
