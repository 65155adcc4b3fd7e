/**
 * The chat-room admin overlay (spec 001 §2, §4, §6): a password prompt (AUTHENTICATE; Enter
 * submits; a wrong password clears the field), then TOR NETWORK STATUS, BRIDGE MANAGEMENT and the
 * buttons TOR STATUS, TOR CONNECT, TOR DISCONNECT, TOR RESTART, TOR LOGS and TOR TEST, with a
 * notice about censored regions.
 *
 * Unlike the original, the password is checked by the server (POST /api/admin/authenticate, with
 * its lockout): nothing secret is embedded in the client. The answer is the ten-minute admin
 * session of admin-session.ts (memory only), which every Tor call then carries as its bearer.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type AdminCredential } from '../../lib/admin/admin-api.js';
import { AdminPasswordGate } from '../../ui/AdminPasswordGate.js';
import { useAdminSession } from '../../lib/admin/admin-session.js';
import { SECTION_TITLE } from '../../ui/admin-styles.js';
import { TerminalDialog } from '../../ui/TerminalDialog.js';
import { BridgeConfigCard } from './BridgeConfigCard.js';
import {
  connectTor,
  fetchTorAdminStatus,
  fetchTorLogs,
  runTorAction,
  torQueryKeys,
} from './tor-api.js';
import { TorStatusCard } from './TorStatusCard.js';
import { formatBytes, formatReachability } from './tor-progress.js';

export interface TorAdminOverlayProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function TorAdminOverlay({ open, onOpenChange }: TorAdminOverlayProps) {
  const session = useAdminSession();
  return (
    <TerminalDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Admin overlay"
      description={
        session
          ? 'Tor network status, bridges and commands. Every action is written to the audit log.'
          : 'Enter the admin password. It is checked by the server; nothing is stored in this page.'
      }
      windowLabel="root@securechannel:~/tor"
      status={
        <span className={session ? 'text-primary' : 'text-danger'} data-testid="tor-overlay-state">
          {session ? 'UNLOCKED' : 'LOCKED'}
        </span>
      }
      widthClass="max-w-3xl"
      testId="tor-admin-overlay"
    >
      {session ? (
        <TorCommands credential={{ kind: 'admin-session', token: session.sessionToken }} />
      ) : (
        <AdminPasswordGate testIdPrefix="tor-overlay" onFailure={logFailedAuthentication} />
      )}
    </TerminalDialog>
  );
}

/** spec 001 §8: the overlay logs '[ADMIN] ... failed' lines. */
function logFailedAuthentication(): void {
  // eslint-disable-next-line no-console -- the spec's console line, without the password or reason
  console.warn('[ADMIN] authentication failed');
}

type Command = 'status' | 'connect' | 'disconnect' | 'restart' | 'logs' | 'test';

const COMMANDS: { id: Command; label: string }[] = [
  { id: 'status', label: 'TOR STATUS' },
  { id: 'connect', label: 'TOR CONNECT' },
  { id: 'disconnect', label: 'TOR DISCONNECT' },
  { id: 'restart', label: 'TOR RESTART' },
  { id: 'logs', label: 'TOR LOGS' },
  { id: 'test', label: 'TOR TEST' },
];

function TorCommands({ credential }: { credential: AdminCredential }) {
  const queryClient = useQueryClient();
  const [output, setOutput] = useState<string[]>([]);
  const [busy, setBusy] = useState<Command | null>(null);
  const print = (lines: string[]) => setOutput((current) => [...current, ...lines].slice(-80));

  const run = async (command: Command) => {
    setBusy(command);
    print([`> tor ${command}`]);
    try {
      if (command === 'status') {
        const status = await fetchTorAdminStatus(credential);
        print([
          `[TOR] state=${status.state} running=${status.running} circuits=${status.circuits}`,
          `[TOR] socks=${status.socksPortOpen} control=${status.controlPortOpen} hiddenService=${status.hiddenServiceReady} uptime=${status.uptime}s`,
          `[TOR] connected=${status.connected} bandwidth=${formatBytes(status.bandwidth.read)} read/${formatBytes(status.bandwidth.written)} written hiddenServiceReachable=${status.hiddenServiceReachable}`,
          `[TOR] onion service self-test: ${formatReachability(status)}`,
          `[TOR] onion=${status.onionAddress ?? '—'}`,
        ]);
      } else if (command === 'connect') {
        const result = await connectTor(credential);
        print([`[TOR] ${result.message} (circuits ${result.circuits})`]);
      } else if (command === 'logs') {
        const logs = await fetchTorLogs(credential);
        print(logs.length > 0 ? logs.slice(-15) : ['[TOR] no log lines yet']);
      } else {
        const action = command === 'test' ? 'test-hidden-service' : command;
        const result = await runTorAction(action, credential, `Tor ${command} failed`);
        print([`[TOR] ${result.message}`]);
      }
    } catch (error) {
      print([`[ADMIN] tor ${command} failed: ${error instanceof Error ? error.message : ''}`]);
    } finally {
      setBusy(null);
      await queryClient.invalidateQueries({ queryKey: torQueryKeys.all });
    }
  };

  return (
    <div className="space-y-4">
      <TorStatusCard credential={credential} />
      <BridgeConfigCard credential={credential} />
      <section
        aria-labelledby="tor-commands-title"
        className="border border-border bg-background p-4"
      >
        <h3 id="tor-commands-title" className={SECTION_TITLE}>
          Commands
        </h3>
        <div className="mt-3 flex flex-wrap gap-2">
          {COMMANDS.map((command) => (
            <button
              key={command.id}
              type="button"
              className="sc-btn min-h-9 px-2 py-1 text-xs"
              disabled={busy !== null}
              onClick={() => void run(command.id)}
            >
              {command.label}
            </button>
          ))}
        </div>
        <pre
          className="mt-3 max-h-44 overflow-auto border border-border/60 bg-surface/40 p-2 text-[0.75rem] leading-relaxed whitespace-pre-wrap text-muted"
          data-testid="tor-command-output"
          aria-live="polite"
        >
          {output.length > 0 ? output.join('\n') : 'Ready.'}
        </pre>
      </section>
      <p className="border border-accent/40 bg-accent/5 p-3 text-xs leading-relaxed text-muted">
        Secure communications in censored regions: where Tor is blocked, add obfs4, meek, snowflake
        or webtunnel bridges above, then connect. Visitors can then reach this service at its onion
        address without revealing where they are.
      </p>
    </div>
  );
}
