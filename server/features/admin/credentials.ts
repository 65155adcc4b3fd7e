/**
 * The admin password (DESIGN.md operator contract): from ADMIN_PASSWORD, or generated on first
 * start, printed once, and stored only as a slow hash. Authentication opens a ten-minute admin
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
  /** Where a generated password is shown once (stdout in production). */
  announce: (message: string) => void;
}

export const ADMIN_TEXT = {
  invalidPassword: 'Invalid admin password',
  locked: (seconds: number) =>
    `Too many failed attempts. Admin access locked for ${seconds} seconds.`,
  authenticated: 'Admin authentication successful',
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
      this.deps.announce(
        `\n  SecureChannel admin password (shown once, store it now): ${generated}\n` +
          '  Set ADMIN_PASSWORD to choose your own.\n\n',
      );
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

  /** Checks the password for `client` under the lockout rules; throws on a wrong password or a lock. */
  async checkPassword(password: string, client: string): Promise<void> {
    const locked = await this.deps.lockout.lockedFor(client);
    if (locked > 0)
      throw new AppError('ADMIN_LOCKED', 429, ADMIN_TEXT.locked(Math.ceil(locked / 1000)));
    const stored = await this.deps.store.getPasswordHash();
    if (!stored || !(await verifySecret(password, stored))) {
      const lockedNow = await this.deps.lockout.recordFailure(client);
      if (lockedNow > 0)
        throw new AppError('ADMIN_LOCKED', 429, ADMIN_TEXT.locked(Math.ceil(lockedNow / 1000)));
      throw new AppError('ADMIN_PASSWORD', 401, ADMIN_TEXT.invalidPassword);
    }
    await this.deps.lockout.recordSuccess(client);
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
