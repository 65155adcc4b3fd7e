/**
 * Where a maintenance_mode notice sends every client (spec 001 §2): the chat service is offline.
 *
 * While mounted the page exposes the browser-console admin commands on `window` (spec 001 §2,
 * §4): `authenticate(password)`, `restoreService()`, `checkStatus()` and `help()`, printing with
 * console.info (maintenance-console.ts holds their logic), and removes them on unmount. Its own
 * small socket (useServiceRestored) carries `restore_service`; once the service is back (that
 * socket's `service_restored`, or the poll of the service state) the page shows 'SERVICE
 * RESTORED' and after 2 s returns the user to where they were. ADMIN ACCESS opens the emergency
 * admin panel for those who prefer a form to the console.
 */
import { useEffect, useState } from 'react';
import { ADMIN_LOCKOUT_MS, ADMIN_MAX_FAILED_ATTEMPTS } from '../../../shared/constants.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import {
  authenticateAdmin,
  fetchPublicServiceStatus,
  fetchServiceStatus,
} from '../../lib/admin/admin-api.js';
import { getAdminSession, setAdminSession } from '../../lib/admin/admin-session.js';
import {
  createMaintenanceConsole,
  type MaintenanceConsole,
  useServiceRestored,
} from '../admin/index.js';
import { RetryButton, StillDownNote, useRetryCheck } from './RetryCheck.js';
import { ServiceDownFrame } from './ServiceDownFrame.js';

/** The console commands this page puts on `window` while it is mounted. */
type ConsoleCommands = Omit<MaintenanceConsole, 'dispose'>;

declare global {
  interface Window {
    authenticate?: ConsoleCommands['authenticate'];
    restoreService?: ConsoleCommands['restoreService'];
    checkStatus?: ConsoleCommands['checkStatus'];
    help?: ConsoleCommands['help'];
  }
}

function printToConsole(line: string): void {
  // eslint-disable-next-line no-console -- spec 001 §2: console commands print to the browser console
  console.info(line);
}

const LOCKOUT_MINUTES = ADMIN_LOCKOUT_MS / 60_000;

/** The console commands of spec 001 §2, with what each is for. */
const CONSOLE_COMMANDS = [
  {
    name: 'authenticate',
    usage: "authenticate('password')",
    purpose: `sign in with the admin password; ${ADMIN_MAX_FAILED_ATTEMPTS} failures lock it for ${LOCKOUT_MINUTES} minutes`,
  },
  {
    name: 'restoreService',
    usage: 'restoreService()',
    purpose: 'bring the chat service back online',
  },
  {
    name: 'checkStatus',
    usage: 'checkStatus()',
    purpose: 'show the service status and the admin session',
  },
  { name: 'help', usage: 'help()', purpose: 'list the commands' },
] as const;

export function MaintenancePage() {
  const { restoredMessage, destination, send, onFrame, retry } = useServiceRestored();
  const [isAdminOpen, setAdminOpen] = useState(false);
  const check = useRetryCheck(retry);

  useEffect(() => {
    const commands = createMaintenanceConsole({
      authenticate: authenticateAdmin,
      getSession: () => getAdminSession(),
      setSession: setAdminSession,
      fetchStatus: (session) =>
        session
          ? fetchServiceStatus({ kind: 'admin-session', token: session.sessionToken })
          : fetchPublicServiceStatus(),
      sendRestore: (sessionToken) => send({ type: 'restore_service', sessionToken }),
      onFrame,
      print: printToConsole,
      now: () => Date.now(),
    });
    window.authenticate = commands.authenticate;
    window.restoreService = commands.restoreService;
    window.checkStatus = commands.checkStatus;
    window.help = commands.help;
    printToConsole('SecureChannel maintenance console ready. Type help() for the commands.');
    return () => {
      commands.dispose();
      // Only remove what this page installed, in case something else replaced them since.
      if (window.authenticate === commands.authenticate) delete window.authenticate;
      if (window.restoreService === commands.restoreService) delete window.restoreService;
      if (window.checkStatus === commands.checkStatus) delete window.checkStatus;
      if (window.help === commands.help) delete window.help;
    };
  }, [send, onFrame]);

  return (
    <ServiceDownFrame
      tone="warning"
      status="Offline"
      restoredMessage={restoredMessage}
      widthClass="max-w-2xl"
      isAdminOpen={isAdminOpen}
      onAdminOpenChange={setAdminOpen}
      afterRestorePath={destination}
      footer={
        <footer className="border-t border-border px-4 py-3 text-center text-xs uppercase tracking-[0.25em] text-muted sm:px-6">
          Status: maintenance · service offline
        </footer>
      }
    >
      <div
        data-testid="maintenance-notice"
        className="w-full max-w-2xl border border-warning/60 bg-surface shadow-[0_0_60px_-24px_var(--sc-warning)]"
      >
        <div
          aria-hidden="true"
          className="h-2 bg-[repeating-linear-gradient(135deg,var(--sc-warning)_0_10px,transparent_10px_20px)] opacity-70"
        />
        <div className="p-6 sm:p-10">
          <p className="text-xs uppercase tracking-[0.35em] text-muted">
            <span aria-hidden="true">&gt; </span>
            {TEXT.chatServiceOffline}
          </p>
          <h1 className="mt-2 text-2xl font-bold uppercase tracking-[0.15em] text-warning [text-shadow:0_0_16px_color-mix(in_srgb,var(--sc-warning)_50%,transparent)] sm:text-3xl">
            Maintenance mode
          </h1>
          <p className="mt-5 text-sm leading-relaxed text-fg">
            The chat service is offline while administrators work on it. No channel accepts
            connections right now. {TEXT.tryAgainInFewMinutes}
          </p>

          <section
            aria-labelledby="operator-note-heading"
            className="mt-8 border border-dashed border-border bg-background p-4 sm:p-5"
          >
            <h2
              id="operator-note-heading"
              className="text-xs font-bold uppercase tracking-[0.25em] text-primary"
            >
              Operator note
            </h2>
            <p className="mt-2 text-xs leading-relaxed text-muted">
              Administrators restore service from this page: open the browser&apos;s developer
              console and use the commands below, or use ADMIN ACCESS.
            </p>
            <dl className="mt-4 space-y-3 text-xs sm:text-sm">
              {CONSOLE_COMMANDS.map((command) => (
                <div key={command.name} className="sm:flex sm:gap-4">
                  <dt className="shrink-0 sm:w-56">
                    <code className="text-accent">{command.usage}</code>
                  </dt>
                  <dd className="text-fg">{command.purpose}</dd>
                </div>
              ))}
            </dl>
          </section>

          <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
            <RetryButton
              check={check}
              label="Retry connection"
              tone="warning"
              testId="maintenance-retry"
              className="w-full sm:w-auto"
            />
            <button
              type="button"
              onClick={() => setAdminOpen(true)}
              data-testid="admin-access"
              className="inline-flex min-h-11 w-full items-center justify-center gap-2 border border-border px-5 py-2 text-sm font-bold uppercase tracking-[0.2em] text-muted transition-colors hover:border-danger hover:text-danger sm:w-auto"
            >
              <span aria-hidden="true">[</span>
              {TEXT.adminAccess}
              <span aria-hidden="true">]</span>
            </button>
          </div>
          <StillDownNote checkedAt={check.stillDownAt} testId="maintenance-still-down" />
        </div>
      </div>
    </ServiceDownFrame>
  );
}
