/**
 * The admin password (DESIGN.md operator contract): from ADMIN_PASSWORD, or generated on first
 * start and handed to `onGeneratedPassword` once (a 0600 file under DATA_DIR, printed only to a
 * terminal), and stored only as a slow hash. Authentication opens a ten-minute admin
 * session, subject to the lockout rules.
 */
import { randomBytes } from 'node:crypto';
import { ADMIN_SESSION_MS } from '../../../shared/constants.js';
import { AppError } from '../../errors.js';
import { hashSecret, verifySecret } from '../../lib/password-hash.js';
import { hashToken, newToken } from '../auth/index.js';
import type { AdminLockout } from './lockout.js';
import type { AdminStore } from './store.js';

export interface AdminCredentialsDeps {
  store: AdminStore;
  lockout: AdminLockout;
  now: () => number;
  /** Stores and announces a password generated on first start (compose.ts: a 0600 file). */
  onGeneratedPassword: (password: string) => Promise<void>;
  /** Counts one wrong admin password (aggregated per window, without the address). */
  onFailure: () => Promise<void>;
}

export const ADMIN_TEXT = {
  invalidPassword: 'Invalid admin password',
  locked: (seconds: number) =>
    `Too many failed attempts. Admin access locked for ${seconds} seconds.`,
  authenticated: 'Admin authentication successful',
  busy: 'Another admin password check from this address is still running. Try again in a moment.',
} as const;

export class AdminCredentials {
  constructor(private readonly deps: AdminCredentialsDeps) {}

  /** Applies ADMIN_PASSWORD, or generates and prints a password when none was ever set. */
  async initialize(configured: string | null): Promise<void> {
    const stored = await this.deps.store.getPasswordHash();
    if (configured) {
      if (!stored || !(await verifySecret(configured, stored))) {
        await this.deps.store.setPasswordHash(await hashSecret(configured));
      }
      return;
    }
    if (stored) return;
    const generated = randomBytes(18).toString('base64url');
    if (await this.deps.store.initPasswordHash(await hashSecret(generated))) {
      await this.deps.onGeneratedPassword(generated);
    }
  }

  /** Checks the password for `client` under the lockout rules; opens an admin session. */
  async authenticate(
    password: string,
    client: string,
  ): Promise<{ sessionToken: string; expiresAt: Date }> {
    await this.checkPassword(password, client);
    const sessionToken = newToken();
    const createdAt = new Date(this.deps.now());
    const expiresAt = new Date(createdAt.getTime() + ADMIN_SESSION_MS);
    await this.deps.store.insertSession({
      tokenHash: hashToken(sessionToken),
      createdAt,
      expiresAt,
    });
    return { sessionToken, expiresAt };
  }

  /**
   * Checks the password for `client` under the lockout rules (lockout.ts): the attempt is counted
   * before the slow hash runs, one check per address at a time; throws on a wrong password, a
   * lock or a check already running.
   */
  async checkPassword(password: string, client: string): Promise<void> {
    const outcome = await this.deps.lockout.guard(client, async () => {
      const stored = await this.deps.store.getPasswordHash();
      return stored !== null && (await verifySecret(password, stored));
    });
    if (outcome.kind === 'busy')
      throw new AppError('ADMIN_BUSY', 409, ADMIN_TEXT.busy, { adminAuth: true });
    if (outcome.kind === 'locked') throw lockedError(outcome.remainingMs);
    if (outcome.succeeded) return;
    await this.deps.onFailure();
    if (outcome.lockedMs > 0) throw lockedError(outcome.lockedMs);
    throw new AppError('ADMIN_PASSWORD', 401, ADMIN_TEXT.invalidPassword, { adminAuth: true });
  }

  /** Deletes expired admin sessions. */
  async sweepExpired(): Promise<void> {
    await this.deps.store.deleteExpiredSessions(new Date(this.deps.now()));
  }

  /** True when `token` is a live admin session. */
  async isAdminSession(token: string): Promise<boolean> {
    return (
      (await this.deps.store.findSession(hashToken(token), new Date(this.deps.now()))) !== null
    );
  }
}

function lockedError(remainingMs: number): AppError {
  return new AppError('ADMIN_LOCKED', 429, ADMIN_TEXT.locked(Math.ceil(remainingMs / 1000)), {
    adminAuth: true,
  });
}
