/** The admin feature: the admin password, its lockout and admin console sessions. */
import type { Db } from '../../db/connect.js';
import { AdminCredentials } from './credentials.js';
import { AdminLockout, MemoryLockoutStore, type LockoutStore } from './lockout.js';
import { adminRoutes } from './routes.js';
import { createAdminStore } from './store.js';

export { AdminCredentials, ADMIN_TEXT } from './credentials.js';
export { AdminLockout, MemoryLockoutStore, type LockoutStore } from './lockout.js';

export interface AdminFeatureDeps {
  db: Db;
  now: () => number;
  announce: (message: string) => void;
  lockoutStore?: LockoutStore;
}

export function createAdminFeature(deps: AdminFeatureDeps) {
  const credentials = new AdminCredentials({
    store: createAdminStore(deps.db),
    lockout: new AdminLockout(deps.lockoutStore ?? new MemoryLockoutStore(), deps.now),
    now: deps.now,
    announce: deps.announce,
  });
  return { credentials, routes: adminRoutes(credentials) };
}
