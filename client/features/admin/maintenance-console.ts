/**
 * The maintenance page's browser-console admin commands (spec 001 §2, §4, §6, §7):
 * `authenticate(password)`, `restoreService()`, `checkStatus()` and `help()`.
 *
 * - authenticate: POST /api/admin/authenticate; the admin session token (ten minutes) is kept in
 *   memory only. The server enforces the lockout (3 failures lock the address for 5 minutes); the
 *   console remembers the remaining time its 429 message gives and answers locally until then.
 * - restoreService: the `restore_service` frame with the admin session token over the page's
 *   socket; the answer is `service_restored` (the page then reloads to `/`) or `admin_error`.
 * - checkStatus: GET /api/admin/status and the admin session's remaining time.
 *
 * Framework-free: the page wires it to the window, the socket and `console.info`. Nothing it
 * prints contains the password or a token.
 */
import { ADMIN_LOCKOUT_MS, ADMIN_MAX_FAILED_ATTEMPTS } from '../../../shared/constants.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import {
  type PublicServiceStatus,
  type ServiceStatus,
} from '../../../shared/protocol/http/admin.js';
import { AdminApiError, type AdminSessionGrant } from '../../lib/admin/admin-api.js';
import { type OnFrame } from '../../lib/admin/admin-socket.js';
import {
  formatRemaining,
  formatSessionLeft,
  lockoutSecondsFromMessage,
} from '../../lib/admin/lockout.js';

export interface MaintenanceConsoleDeps {
  authenticate: (password: string) => Promise<AdminSessionGrant>;
  getSession: () => AdminSessionGrant | null;
  setSession: (grant: AdminSessionGrant) => void;
  /**
   * The service state: with an admin session the admin answer (with open connections), without
   * one the public answer.
   */
  fetchStatus: (session: AdminSessionGrant | null) => Promise<PublicServiceStatus | ServiceStatus>;
  /** Sends `restore_service`; false when the socket is not open. */
  sendRestore: (sessionToken: string) => boolean;
  onFrame: OnFrame;
  print: (line: string) => void;
  now: () => number;
}

export interface MaintenanceConsole {
  authenticate: (password: string) => Promise<void>;
  restoreService: () => void;
  checkStatus: () => Promise<void>;
  help: () => void;
  /** Stops listening to the socket. */
  dispose: () => void;
}

const PREFIX = '[ADMIN]';
const LOCKOUT_MINUTES = ADMIN_LOCKOUT_MS / 60_000;

export const MAINTENANCE_HELP: readonly string[] = [
  'SecureChannel maintenance console',
  "  authenticate('password')  open a 10-minute admin session",
  `                            (${ADMIN_MAX_FAILED_ATTEMPTS} failed attempts lock admin access for ${LOCKOUT_MINUTES} minutes)`,
  '  restoreService()          bring the chat service back online',
  '  checkStatus()             show the service status and the admin session',
  '  help()                    show this list',
];

function clock(ms: number): string {
  return new Date(ms).toISOString().slice(11, 19);
}

export function createMaintenanceConsole(deps: MaintenanceConsoleDeps): MaintenanceConsole {
  let lockedUntil = 0;
  let isRestorePending = false;

  const offs = [
    deps.onFrame('service_restored', (frame) => {
      isRestorePending = false;
      deps.print(`${PREFIX} ${TEXT.serviceRestored}: ${frame.message}`);
    }),
    deps.onFrame('admin_error', (frame) => {
      if (!isRestorePending) return;
      isRestorePending = false;
      deps.print(`${PREFIX} Restore failed: ${frame.message}`);
    }),
  ];

  const authenticate = async (password: string): Promise<void> => {
    if (typeof password !== 'string' || password === '') {
      deps.print(`${PREFIX} ${TEXT.adminPasswordRequired}. Usage: authenticate('password')`);
      return;
    }
    const lockedFor = lockedUntil - deps.now();
    if (lockedFor > 0) {
      deps.print(
        `${PREFIX} Admin access locked: ${formatRemaining(lockedFor / 1000)} remaining (${Math.ceil(lockedFor / 1000)} seconds).`,
      );
      return;
    }
    try {
      const grant = await deps.authenticate(password);
      deps.setSession(grant);
      deps.print(
        `${PREFIX} Admin authentication successful. Session valid until ${clock(grant.expiresAt)} UTC.`,
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : TEXT.adminAuthenticationError;
      deps.print(`${PREFIX} Authentication failed: ${message}`);
      const seconds = lockoutSecondsFromMessage(message);
      if (seconds !== null || (error instanceof AdminApiError && error.isLockedOut)) {
        lockedUntil = deps.now() + (seconds ?? LOCKOUT_MINUTES * 60) * 1000;
        deps.print(
          `${PREFIX} Locked for ${formatRemaining((lockedUntil - deps.now()) / 1000)}. Try again later.`,
        );
      }
    }
  };

  const restoreService = (): void => {
    const session = deps.getSession();
    if (!session) {
      deps.print(`${PREFIX} Not authenticated. Run authenticate('password') first.`);
      return;
    }
    if (!deps.sendRestore(session.sessionToken)) {
      deps.print(`${PREFIX} The relay connection is not open yet. Try again in a moment.`);
      return;
    }
    isRestorePending = true;
    deps.print(`${PREFIX} restore_service sent. Waiting for the relay...`);
  };

  const checkStatus = async (): Promise<void> => {
    try {
      const status = await deps.fetchStatus(deps.getSession());
      deps.print(`[STATUS] Service: ${status.status.toUpperCase()}`);
      if (status.reason) deps.print(`[STATUS] Reason: ${status.reason}`);
      if (status.since) deps.print(`[STATUS] Since: ${status.since}`);
      if ('connections' in status) deps.print(`[STATUS] Open connections: ${status.connections}`);
    } catch (error) {
      deps.print(
        `[STATUS] Status check failed: ${error instanceof Error ? error.message : 'unknown error'}`,
      );
    }
    const session = deps.getSession();
    deps.print(
      session
        ? `[STATUS] Admin session: active, ${formatSessionLeft(session.expiresAt, deps.now())} left`
        : '[STATUS] Admin session: not authenticated',
    );
    const lockedFor = lockedUntil - deps.now();
    if (lockedFor > 0)
      deps.print(`[STATUS] Admin access locked: ${formatRemaining(lockedFor / 1000)} remaining`);
  };

  const help = (): void => {
    for (const line of MAINTENANCE_HELP) deps.print(line);
  };

  return {
    authenticate,
    restoreService,
    checkStatus,
    help,
    dispose: () => {
      for (const off of offs) off();
    },
  };
}
