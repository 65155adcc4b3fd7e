/**
 * Key login on the chat socket (docs/protocol.md "Key login on the socket"): `login_challenge`
 * and `login_verify` do what `POST /api/auth/challenge` and `POST /api/auth/verify` do, through
 * the same service, with the same limits counted in the same places:
 *
 * - the per-visitor count of each step (the login limiter, shared with the two routes: a visitor
 *   has one allowance whichever way it logs in);
 * - the failed verifications per key and visitor (AuthService.verify);
 * - the bounded queue in front of the verify pool (LoginAdmission): past it the frame is refused
 *   with the route's 503 text and `retryAfterSeconds`, and nothing is taken;
 * - the hub's frames per second of the socket;
 * - one login started per event-loop turn (the routes' queue of turns).
 *
 * A login gives the socket no identity: the session token comes back to the client, which joins
 * with it like any other socket (one identity per socket stays the join's business).
 */
import type { FastifyBaseLogger } from 'fastify';
import { TEXT } from '../../../shared/protocol/errors.js';
import { AppError } from '../../errors.js';
import type { RateLimiter } from '../../lib/rate-limiter.js';
import type { TurnQueue } from '../../lib/turns.js';
import type { Hub } from '../../realtime/hub.js';
import type { LoginAdmission } from './login-admission.js';
import type { AuthService } from './service.js';

export interface LoginFramesDeps {
  hub: Hub;
  service: AuthService;
  /** Challenges and verifications per visitor and minute, shared with the HTTP routes. */
  limiter: RateLimiter;
  admission: LoginAdmission;
  /** One login starts per event-loop turn, over either way (shared with the routes). */
  turns: TurnQueue;
  logger: FastifyBaseLogger;
}

/** The login limiter's key of one step for one visitor (server/lib/visitor.ts). */
export function loginLimitKey(visitor: string, step: 'challenge' | 'verify'): string {
  return `${visitor}|${step}`;
}

export function registerLoginFrames(deps: LoginFramesDeps): void {
  const { hub, service, limiter, admission, turns, logger } = deps;
  // A burst of logins (a room reconnecting) starts one per turn, so chat frames are read between
  // them; only the start waits its turn, not the verification.
  const myTurn = () => turns.run(() => undefined);

  hub.on('login_challenge', async (connection, frame) => {
    await myTurn();
    if (!(await limiter.hit(loginLimitKey(connection.visitor, 'challenge')))) {
      throw new AppError('RATE_LIMITED', 429, TEXT.tooManyRequests);
    }
    const issued = await service.issueChallenge(frame.keyId);
    connection.send({ type: 'login_challenge_issued', ...issued });
  });

  hub.on('login_verify', async (connection, frame) => {
    // The queue first, as the route does before it reads a body: a refusal takes nothing.
    const admitted = admission.admit(connection.visitor);
    if (!admitted.admitted) {
      connection.send({
        type: 'error',
        message: TEXT.loginBusy,
        frameType: 'login_verify',
        retryAfterSeconds: admitted.retryAfterSeconds,
      });
      return;
    }
    try {
      await myTurn();
      if (!(await limiter.hit(loginLimitKey(connection.visitor, 'verify')))) {
        throw new AppError('RATE_LIMITED', 429, TEXT.tooManyRequests);
      }
      const session = await service.verify(frame, connection.visitor);
      connection.send({ type: 'login_session', ...session });
      logger.info({ keyId: session.user.keyId }, 'key holder logged in');
    } finally {
      admitted.ticket.release();
    }
  });
}
