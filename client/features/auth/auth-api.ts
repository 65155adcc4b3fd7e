/**
 * The auth calls of the client with the texts of spec 000 §5: every answer is parsed by its shared
 * schema; failures carry the server's error or the spec's default text.
 */
import type { SessionUser } from '../../../shared/protocol/http/auth.js';

/**
 * The auth schemas (and zod with them) load with the first call that parses an answer, in
 * parallel with its request: the session check runs from the entry, which must not load zod
 * before the first paint (issue 22, target 5).
 */
export function loadAuthSchemas() {
  const schemas = import('../../../shared/protocol/http/auth.js');
  schemas.catch(() => undefined); // awaited by the caller; a failed load fails the call there
  return schemas;
}

/** The step of the key login that failed. */
export type LoginStep = 'challenge' | 'verify' | 'session';

/**
 * A login failure whose message is fit to show the user (spec 000 §5's texts). `step` and
 * `isServerText` let a page whose own spec words a failure differently choose its text: the
 * landing page reads 'Authentication failed' where the server said nothing (spec 001 §8,
 * docs/decisions.md "Key login failure texts").
 */
export class LoginError extends Error {
  override readonly name = 'LoginError';
  constructor(
    message: string,
    readonly step: LoginStep,
    /** True when `message` is the server's own `error` text. */
    readonly isServerText: boolean,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** The user of a stored session; null unless the server says valid and returns a user. */
export async function fetchSessionUser(token: string): Promise<SessionUser | null> {
  const schemas = loadAuthSchemas();
  const response = await fetch('/api/auth/session', {
    headers: { authorization: `Bearer ${token}` },
  });
  // Only a refusal of the token says it is invalid; a server that cannot answer now (503 during
  // an emergency shutdown, 5xx) is an error, and the stored session is kept.
  if (response.status === 401 || response.status === 403) return null;
  if (!response.ok) throw new Error(`${response.status}: ${response.statusText}`);
  const { SessionResponseSchema } = await schemas;
  const parsed = SessionResponseSchema.safeParse(await response.json());
  if (!parsed.success || !parsed.data.valid || !parsed.data.user) return null;
  return parsed.data.user;
}

/** Ends the session on the server; a failure is only logged (spec 000 §7). */
export async function logoutOnServer(token: string): Promise<void> {
  try {
    await fetch('/api/auth/logout', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
  } catch (error) {
    // eslint-disable-next-line no-console -- spec 000 §7: a logout failure is only logged
    console.warn('Logout request failed', error);
  }
}
