/**
 * The auth calls of the client with the texts of spec 000 §5: every answer is parsed by its shared
 * schema; failures carry the server's error or the spec's default text.
 */
import { bytesToNumbers } from '../../../shared/crypto/bytes.js';
import type { KeyFile } from '../../../shared/crypto/key-file-schema.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import type { SessionUser } from '../../../shared/protocol/http/auth.js';
import { HttpError, apiRequest } from '../../lib/http.js';

/**
 * The auth schemas (and zod with them) load with the first call that parses an answer, in
 * parallel with its request: the session check runs from the entry, which must not load zod
 * before the first paint (issue 22, target 5).
 */
function loadAuthSchemas() {
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

function serverText(error: unknown): string | null {
  return error instanceof HttpError ? error.serverError : null;
}

/** Times a login waits and sends its verification again while the server's queue is full. */
export const LOGIN_BUSY_RETRIES = 5;
/** Longest wait honoured from a `Retry-After`, in seconds (the challenge lives two minutes). */
const MAX_BUSY_WAIT_SECONDS = 30;

export interface LoginOptions {
  /**
   * Told each time the server's login queue is full (503): the seconds until the verification
   * is sent again and how many tries are left after that one.
   */
  onBusy?: (retryInSeconds: number, triesLeft: number) => void;
  /** Waits `ms` (tests pass a fake). */
  sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Sends `send` again after each 503 with Retry-After, at most LOGIN_BUSY_RETRIES times. */
async function retryWhileBusy<T>(send: () => Promise<T>, options: LoginOptions): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await send();
    } catch (error) {
      // Only the login queue's 503 says when to come back; a service shut down does not.
      const retryAfter =
        error instanceof HttpError && error.status === 503 ? error.retryAfterSeconds : null;
      if (retryAfter === null || attempt >= LOGIN_BUSY_RETRIES) throw error;
      const seconds = Math.min(MAX_BUSY_WAIT_SECONDS, Math.max(1, retryAfter));
      options.onBusy?.(seconds, LOGIN_BUSY_RETRIES - attempt - 1);
      // Up to a second more at random: the logins refused together do not all come back at once.
      await (options.sleep ?? realSleep)(seconds * 1000 + Math.floor(Math.random() * 1000));
    }
  }
}

/**
 * Challenge, sign both ways in the browser, verify. Private keys never leave this function's
 * caller. When the server's login queue is full it answers 503 with Retry-After before reading
 * the verification: the same signed challenge is sent again after that many seconds.
 */
export async function loginWithKeyFile(
  keyFile: KeyFile,
  options: LoginOptions = {},
): Promise<{ sessionToken: string; user: SessionUser }> {
  const schemas = loadAuthSchemas();
  let challenge: string;
  try {
    const { ChallengeResponseSchema } = await schemas;
    const answer = await apiRequest('/api/auth/challenge', ChallengeResponseSchema, {
      method: 'POST',
      body: { keyId: keyFile.keyId },
      auth: false,
    });
    challenge = answer.challenge;
  } catch (error) {
    // Spec 000 §5: a challenge failure reads 'Failed to get authentication challenge', whatever
    // the server said.
    throw new LoginError(TEXT.challengeFailed, 'challenge', false, { cause: error });
  }
  // ML-DSA-65 and ECDSA signing load with the first key login, not with the page.
  const { signChallenge } = await import('../../../shared/crypto/key-file.js');
  const signatures = await signChallenge(keyFile, challenge);
  const { VerifyResponseSchema } = await schemas;
  let verified: unknown;
  try {
    const body = {
      keyId: keyFile.keyId,
      challenge,
      dilithiumSignature: bytesToNumbers(signatures.dilithiumSignature),
      ecdsaSignature: bytesToNumbers(signatures.ecdsaSignature),
    };
    verified = await retryWhileBusy(
      () =>
        apiRequest('/api/auth/verify', VerifyResponseSchema.partial(), {
          method: 'POST',
          auth: false,
          body,
        }),
      options,
    );
  } catch (error) {
    const said = serverText(error);
    throw new LoginError(said ?? TEXT.verificationFailed, 'verify', said !== null, {
      cause: error,
    });
  }
  const parsed = VerifyResponseSchema.safeParse(verified);
  if (!parsed.success) throw new LoginError(TEXT.noSessionToken, 'session', false);
  return { sessionToken: parsed.data.sessionToken, user: parsed.data.user };
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
