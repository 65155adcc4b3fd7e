/**
 * Room access grants: a correct access code buys a random token, valid 12 hours, that `join_room`
 * presents instead of the code. Kept in memory (Redis when scaled out); a restart forgets them and
 * members enter the code again.
 */
import { randomBytes } from 'node:crypto';

export const ACCESS_GRANT_TTL_MS = 12 * 60 * 60 * 1000;

export interface AccessGrantStore {
  issue(roomId: string): Promise<string>;
  isValid(token: string, roomId: string): Promise<boolean>;
  purgeRoom(roomId: string): Promise<void>;
}

export class MemoryAccessGrantStore implements AccessGrantStore {
  private readonly grants = new Map<string, { roomId: string; expiresAt: number }>();

  constructor(private readonly now: () => number) {}

  async issue(roomId: string): Promise<string> {
    const token = randomBytes(24).toString('base64url');
    this.grants.set(token, { roomId, expiresAt: this.now() + ACCESS_GRANT_TTL_MS });
    if (this.grants.size > 50_000) this.sweep();
    return token;
  }

  async isValid(token: string, roomId: string): Promise<boolean> {
    const grant = this.grants.get(token);
    return grant !== undefined && grant.roomId === roomId && grant.expiresAt > this.now();
  }

  async purgeRoom(roomId: string): Promise<void> {
    for (const [token, grant] of this.grants)
      if (grant.roomId === roomId) this.grants.delete(token);
  }

  private sweep(): void {
    const now = this.now();
    for (const [token, grant] of this.grants) if (grant.expiresAt <= now) this.grants.delete(token);
  }
}
