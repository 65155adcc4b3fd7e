/**
 * The admin feature: the admin password and its lockout, admin console sessions, the service
 * state (emergency shutdown), admin commands over HTTP and the socket, and the audit log.
 */
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Db } from '../../db/connect.js';
import type { Hub } from '../../realtime/hub.js';
import type { PresenceMember } from '../rooms/index.js';
import { createAuditStore, type AuditStore } from './audit.js';
import { AdminCredentials } from './credentials.js';
import { registerAdminFrames } from './frames.js';
import { AdminLockout, MemoryLockoutStore, type LockoutStore } from './lockout.js';
import { AdminOperations, EMERGENCY_CLOSE_CODE, type ServicePublisher } from './operations.js';
import { adminRoutes } from './routes.js';
import { serviceRoutes } from './service-routes.js';
import { ServiceStateHolder, createServiceStateStore } from './service-state.js';
import { createAdminStore } from './store.js';

export { AdminCredentials, ADMIN_TEXT } from './credentials.js';
export {
  AdminLockout,
  MemoryLockoutStore,
  ADMIN_LOCKOUT_RULES,
  type LockoutAdmission,
  type LockoutRules,
  type LockoutStore,
  type LockoutState,
} from './lockout.js';
export { writeAdminPasswordFile, ADMIN_PASSWORD_FILE } from './password-file.js';
export {
  AdminOperations,
  SERVICE_TEXT,
  EMERGENCY_CLOSE_CODE,
  type ServicePublisher,
} from './operations.js';
export { ServiceStateHolder, type ServiceState } from './service-state.js';
export { isBlockedDuringShutdown } from './service-routes.js';
export { FRAMES_ALLOWED_DURING_SHUTDOWN, ADMIN_FRAME_TEXT } from './frames.js';
export type { AuditStore, AuditRecord, AuditAction } from './audit.js';

export interface AdminFeatureDeps {
  db: Db;
  now: () => number;
  /** Stores and announces a password generated on first start. */
  onGeneratedPassword: (password: string) => Promise<void>;
  lockoutStore?: LockoutStore;
}

/** Credentials, audit and service state: needed before the other features are built. */
export async function createAdminFeature(deps: AdminFeatureDeps) {
  const audit = createAuditStore(deps.db, deps.now);
  const credentials = new AdminCredentials({
    store: createAdminStore(deps.db),
    lockout: new AdminLockout(deps.lockoutStore ?? new MemoryLockoutStore(), deps.now),
    now: deps.now,
    onGeneratedPassword: deps.onGeneratedPassword,
    onFailure: () => audit.recordLoginFailure(),
  });
  const state = new ServiceStateHolder(createServiceStateStore(deps.db));
  await state.load();
  return { credentials, audit, state, routes: adminRoutes(credentials, audit) };
}

export interface AdminOperationsDeps {
  hub: Hub;
  events: ServicePublisher;
  credentials: AdminCredentials;
  audit: AuditStore;
  state: ServiceStateHolder;
  presence: { all(): Promise<PresenceMember[]> };
  now: () => number;
  requireAdmin: preHandlerAsyncHookHandler;
  /** See AdminOperationsDeps in operations.ts. */
  countRemoteClosed: (timestamp: string) => Promise<number>;
  /** The admin actor behind a bearer token (admin console session or admin key), or null. */
  actorForToken: (token: string) => Promise<string | null>;
  bearerActor: (request: FastifyRequest) => Promise<string | null>;
}

/** Shutdown, restore, broadcasts and the user list, over HTTP and the socket. */
export function createAdminOperations(deps: AdminOperationsDeps) {
  const operations = new AdminOperations({
    events: deps.events,
    state: deps.state,
    audit: deps.audit,
    presence: deps.presence,
    now: deps.now,
    closeLocalSockets: (reason, timestamp) => {
      deps.hub.broadcastAll({ type: 'emergency_shutdown_notice', reason, timestamp });
      return deps.hub.closeWhere(() => true, EMERGENCY_CLOSE_CODE, 'Emergency shutdown');
    },
    countRemoteClosed: deps.countRemoteClosed,
  });
  registerAdminFrames({ hub: deps.hub, operations, authorize: deps.actorForToken });
  return {
    operations,
    routes: serviceRoutes({
      operations,
      credentials: deps.credentials,
      audit: deps.audit,
      state: deps.state,
      connectionCount: () => deps.hub.connectionCount(),
      requireAdmin: deps.requireAdmin,
      bearerActor: deps.bearerActor,
    }),
  };
}
