/**
 * Room access grants: a random token, valid 12 hours, that `join_room` presents instead of the
 * access code and the image routes take in `x-room-access`. A grant has a holder: the socket
 * (nodeId) that joined, or the address that entered the code over HTTP. One holder has one grant
 * per room, handed out again on every re-join, so a join flood cannot grow the store. Kept in
 * memory (Redis when scaled out); a restart forgets them and members enter the code again.
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

  async purgeRoom(roomId: string): Promise<void> {
    this.grants.deleteWhere((grant) => grant.roomId === roomId);
    this.byHolder.deleteWhere((_token, key) => key.endsWith(`\n${roomId}`));
  }

  /** Grants held (tests and metrics). */
  get size(): number {
    return this.grants.size;
  }
}
