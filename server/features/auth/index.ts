/** The auth feature: key registration, login, sessions and permissions. */
import type { Db } from '../../db/connect.js';
import type { AttemptCounter } from '../../lib/attempt-counter.js';
import type { FastifyBaseLogger } from 'fastify';
import type { RateLimiter } from '../../lib/rate-limiter.js';
import { TurnQueue } from '../../lib/turns.js';
import type { Hub } from '../../realtime/hub.js';
import { registerLoginFrames } from './frames.js';
import { createGuards } from './guards.js';
import { authRoutes, type AuthRouteOptions } from './routes.js';
import { AuthService } from './service.js';
import type { ChallengeStore } from './challenges.js';
import { cachingKeyRows, createAuthStore } from './store.js';
import type { SignatureVerifier } from './verify-pool.js';
import type { LoginAdmission } from './login-admission.js';

export {
  AuthService,
  KEY_LOGIN_FAILURE_WINDOW_MS,
  registerPublicKey,
  toSessionUser,
  type KeyPrincipal,
} from './service.js';
export { createAuthStore } from './store.js';
export { MemoryChallengeStore, type ChallengeEntry, type ChallengeStore } from './challenges.js';
export { VerifyPool, type SignatureVerifier } from './verify-pool.js';
export {
  LoginAdmission,
  DEFAULT_LOGIN_ADMISSION,
  type LoginAdmissionLimits,
} from './login-admission.js';
export { refuseBusyLoginsEarly, socketPeer } from './login-refusal.js';
export { hasPermission } from './permissions.js';
export { hashToken, newToken, bearerToken } from './tokens.js';
export type { Guards, Principal } from './guards.js';
export { actorName } from './routes.js';

export interface AuthFeatureDeps {
  db: Db;
  /** True when this process is the only server on its database (no Redis): key rows are kept. */
  isOnlyProcess: boolean;
  challenges: ChallengeStore;
  verifier: SignatureVerifier;
  keyFailures: AttemptCounter;
  now: () => number;
  isAdminSession: (token: string) => Promise<boolean>;
  onRevoked: (keyId: string) => Promise<void>;
  loginRatePerMinute: number;
  admission: LoginAdmission;
  /** Logins per visitor and minute, each step: the routes and the login frames count here. */
  loginLimiter: RateLimiter;
  hub: Hub;
  logger: FastifyBaseLogger;
  onAdminAction: AuthRouteOptions['onAdminAction'];
}

export function createAuthFeature(deps: AuthFeatureDeps) {
  const service = new AuthService({
    store: deps.isOnlyProcess ? cachingKeyRows(createAuthStore(deps.db)) : createAuthStore(deps.db),
    challenges: deps.challenges,
    verifier: deps.verifier,
    keyFailures: deps.keyFailures,
    now: deps.now,
    onRevoked: deps.onRevoked,
  });
  const guards = createGuards(service, deps.isAdminSession);
  const turns = new TurnQueue();
  registerLoginFrames({
    turns,
    hub: deps.hub,
    service,
    limiter: deps.loginLimiter,
    admission: deps.admission,
    logger: deps.logger,
  });
  return {
    service,
    guards,
    routes: authRoutes(service, guards, {
      loginRatePerMinute: deps.loginRatePerMinute,
      admission: deps.admission,
      limiter: deps.loginLimiter,
      turns,
      onAdminAction: deps.onAdminAction,
    }),
  };
}
