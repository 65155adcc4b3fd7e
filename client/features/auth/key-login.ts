/**
 * The key login (spec 000 §5, DESIGN.md "Login"): challenge, sign in the browser, verify, over the
 * chat socket the chat then keeps (socket-login.ts) or, where no socket opens, over the two HTTP
 * routes. Loaded with the first login, not with the page.
 */
import { bytesToBase64, bytesToNumbers } from '../../../shared/crypto/bytes.js';
import type { KeyFile } from '../../../shared/crypto/key-file-schema.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import type { SessionUser } from '../../../shared/protocol/http/auth.js';
import { HttpError, apiRequest, requestGateRefusal } from '../../lib/http.js';
import { LoginError, loadAuthSchemas } from './auth-api.js';
import { LoginChannel, SocketLoginRefusal } from './socket-login.js';

/** The server's own words about a failed step, when it gave any. */
function serverText(error: unknown): string | null {
  if (error instanceof HttpError) return error.serverError;
  if (error instanceof SocketLoginRefusal) return error.message || null;
  return null;
}

/** The wait a refusal asks for when the server's login queue is full, else null. */
function busyRetryAfter(error: unknown): number | null {
  // Only the login queue's refusal says when to come back; a service shut down does not.
  if (error instanceof HttpError) return error.status === 503 ? error.retryAfterSeconds : null;
  if (error instanceof SocketLoginRefusal) return error.retryAfterSeconds;
  return null;
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
  /**
   * Opens the login's socket, or answers null when there is none to be had: the login then uses
   * the HTTP routes. Default: the chat socket of this page ({@link openLoginSocket}).
   */
  openSocket?: () => Promise<LoginChannel | null>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Sends `send` again after each refusal of a full queue, at most LOGIN_BUSY_RETRIES times. */
async function retryWhileBusy<T>(send: () => Promise<T>, options: LoginOptions): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await send();
    } catch (error) {
      const retryAfter = busyRetryAfter(error);
      if (retryAfter === null || attempt >= LOGIN_BUSY_RETRIES) throw error;
      const seconds = Math.min(MAX_BUSY_WAIT_SECONDS, Math.max(1, retryAfter));
      options.onBusy?.(seconds, LOGIN_BUSY_RETRIES - attempt - 1);
      // Up to a second more at random: the logins refused together do not all come back at once.
      await (options.sleep ?? realSleep)(seconds * 1000 + Math.floor(Math.random() * 1000));
    }
  }
}

/**
 * The chat socket of this page, opened for the login; null where there is no WebSocket or it
 * does not open (a proxy that refuses upgrades): the login then goes over HTTP, to the same
 * server with the same checks, and the chat finds out about its socket by itself.
 */
export async function openLoginSocket(): Promise<LoginChannel | null> {
  if (typeof WebSocket === 'undefined' || typeof window === 'undefined') return null;
  const { chatSocketUrl, openBrowserSocket } = await import('../../lib/realtime/chat-socket.js');
  return LoginChannel.open(chatSocketUrl(window.location), openBrowserSocket).catch(() => null);
}

/** The two steps of a login over one way to the server. */
interface LoginSteps {
  challenge(keyId: string): Promise<string>;
  /** The server's answer to the signed challenge, parsed by the caller. */
  verify(request: SignedChallenge): Promise<unknown>;
}

interface SignedChallenge {
  keyId: string;
  challenge: string;
  dilithiumSignature: Uint8Array;
  ecdsaSignature: Uint8Array;
}

function socketSteps(channel: LoginChannel): LoginSteps {
  return {
    async challenge(keyId) {
      const [answer, { LoginChallengeIssuedFrameSchema }] = await Promise.all([
        channel.ask({ type: 'login_challenge', keyId }, 'login_challenge_issued'),
        import('../../../shared/protocol/ws/auth.js'),
      ]);
      return LoginChallengeIssuedFrameSchema.parse(answer).challenge;
    },
    verify: (request) =>
      channel.ask(
        {
          type: 'login_verify',
          keyId: request.keyId,
          challenge: request.challenge,
          dilithiumSignature: bytesToBase64(request.dilithiumSignature),
          ecdsaSignature: bytesToBase64(request.ecdsaSignature),
        },
        'login_session',
      ),
  };
}

function httpSteps(schemas: ReturnType<typeof loadAuthSchemas>): LoginSteps {
  return {
    async challenge(keyId) {
      const { ChallengeResponseSchema } = await schemas;
      const answer = await apiRequest('/api/auth/challenge', ChallengeResponseSchema, {
        method: 'POST',
        body: { keyId },
        auth: false,
      });
      return answer.challenge;
    },
    async verify(request) {
      const { VerifyResponseSchema } = await schemas;
      return apiRequest('/api/auth/verify', VerifyResponseSchema.partial(), {
        method: 'POST',
        auth: false,
        body: {
          keyId: request.keyId,
          challenge: request.challenge,
          dilithiumSignature: bytesToNumbers(request.dilithiumSignature),
          ecdsaSignature: bytesToNumbers(request.ecdsaSignature),
        },
      });
    },
  };
}

/**
 * Challenge, sign both ways in the browser, verify: over the chat socket, which then goes to the
 * chat, or over the HTTP routes where no socket opens. Private keys never leave this function's
 * caller. When the server's login queue is full it refuses the verification with a wait (503 with
 * Retry-After, or the frame's retryAfterSeconds): the same signed challenge is sent again after
 * that many seconds.
 */
export async function loginWithKeyFile(
  keyFile: KeyFile,
  options: LoginOptions = {},
): Promise<{ sessionToken: string; user: SessionUser }> {
  const schemas = loadAuthSchemas();
  // Nothing goes out, over a socket or HTTP, before the page's check of the server has passed.
  const refusal = await requestGateRefusal();
  if (refusal !== null) {
    throw new LoginError(TEXT.challengeFailed, 'challenge', false, { cause: new Error(refusal) });
  }
  const channel = await (options.openSocket ?? openLoginSocket)();
  try {
    const result = await loginOver(channel ? socketSteps(channel) : httpSteps(schemas), keyFile, {
      schemas,
      options,
    });
    channel?.handOver();
    return result;
  } finally {
    // A failed login's socket closes; a handed-over one is the chat's now (close does nothing).
    channel?.close();
  }
}

async function loginOver(
  steps: LoginSteps,
  keyFile: KeyFile,
  { schemas, options }: { schemas: ReturnType<typeof loadAuthSchemas>; options: LoginOptions },
): Promise<{ sessionToken: string; user: SessionUser }> {
  let challenge: string;
  try {
    challenge = await steps.challenge(keyFile.keyId);
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
    const signed = { keyId: keyFile.keyId, challenge, ...signatures };
    verified = await retryWhileBusy(() => steps.verify(signed), options);
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
