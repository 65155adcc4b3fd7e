/**
 * The admin console's behaviour (spec 001 §2 "Console", §6, §7): runs a parsed command line over
 * the socket or the admin API and keeps a terminal log of what happened, including the relay's
 * answers (`admin_error`, `user_list`) and the broadcasts that come back to everyone.
 *
 * Every command acts with the console session (spec 001 §6: console commands require console
 * authentication): `sessionToken` is the ten-minute admin session of the password login.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { TEXT } from '../../../shared/protocol/errors.js';
import type { TorAdminStatus } from '../../../shared/protocol/http/tor.js';
import { type LogLine } from '../../ui/use-terminal-log.js';
import {
  connectTor,
  fetchTorAdminStatus,
  fetchTorLogs,
  formatBytes,
  formatReachability,
  runTorAction,
  type TorAction,
} from '../tor/index.js';
import {
  fetchAdminKeys,
  fetchAuditLog,
  revokeKey,
  type AdminCredential,
} from '../../lib/admin/admin-api.js';
import { downloadKeyFile, issueKey } from './issue-key.js';
import { type OnFrame, type SendFrame } from '../../lib/admin/admin-socket.js';
import { formatAuditDetail, formatAuditTime } from './audit-format.js';
import {
  CONSOLE_COMMANDS,
  consoleCommandFrame,
  parseConsoleCommand,
  type ConsoleCommand,
  type TorConsoleAction,
} from './console-commands.js';
import { formatKeyExpiry, keyState, shortKeyId } from './key-list.js';

/** The log keeps this many lines; older ones scroll away for good. */
export const CONSOLE_MAX_LINES = 400;
/** How many audit entries `audit` prints. */
export const CONSOLE_AUDIT_LIMIT = 20;

const WELCOME: readonly LogLine[] = [
  { text: 'SecureChannel admin console', tone: 'primary' },
  { text: 'Type help for the list of commands.', tone: 'muted' },
];

export interface AdminConsoleOptions {
  sessionToken: string;
  send: SendFrame;
  onFrame: OnFrame;
  /** Keys or the audit log changed (revoke): other tabs refresh. */
  onDataChanged: () => void;
}

export interface AdminConsole {
  lines: readonly LogLine[];
  isBusy: boolean;
  run: (line: string) => Promise<void>;
}

/** The HTTP action behind each Tor console word that changes something, and its failure text. */
const TOR_ACTIONS: Partial<Record<TorConsoleAction, { action: TorAction; fallback: string }>> = {
  start: { action: 'start', fallback: 'Failed to start Tor' },
  stop: { action: 'stop', fallback: 'Failed to stop Tor' },
  restart: { action: 'restart', fallback: 'Failed to restart Tor' },
  disconnect: { action: 'disconnect', fallback: 'Tor disconnect failed' },
  test: { action: 'test-hidden-service', fallback: 'Hidden service test failed' },
};

/**
 * The first line of `tor status`: RUNNING with the network state while tor runs, otherwise why not
 * (STOPPED, or UNAVAILABLE when this machine has no tor), then the reason the server gives, if any.
 */
function torHeadline(status: TorAdminStatus): string {
  const headline = status.running
    ? `Tor RUNNING · ${status.state}`
    : `Tor ${status.state === 'unavailable' ? 'UNAVAILABLE' : 'STOPPED'}`;
  return status.message ? `${headline} · ${status.message}` : headline;
}

/** What `tor status` prints (spec 001 §3: the console also reads connected, bandwidth, reachability). */
export function torStatusLines(status: TorAdminStatus, now: number): LogLine[] {
  return [
    { text: torHeadline(status), tone: status.message ? 'danger' : 'primary' },
    {
      text: `  socks ${status.socksPortOpen ? 'open' : 'closed'} · control ${status.controlPortOpen ? 'open' : 'closed'} · hidden service ${status.hiddenServiceReady ? 'ready' : 'not ready'}`,
      tone: 'fg',
    },
    {
      text: `  connected ${status.connected ? 'yes' : 'no'} · bandwidth ↓ ${formatBytes(status.bandwidth.read)} ↑ ${formatBytes(status.bandwidth.written)} · hidden service ${formatReachability(status, now)}`,
      tone: 'fg',
    },
    {
      text: `  onion ${status.onionAddress ?? 'none'} · circuits ${status.circuits} · uptime ${status.uptime} s`,
      tone: 'fg',
    },
  ];
}

async function runTor(action: TorConsoleAction, credential: AdminCredential): Promise<LogLine[]> {
  if (action === 'status') return torStatusLines(await fetchTorAdminStatus(credential), Date.now());
  if (action === 'logs') {
    const logs = await fetchTorLogs(credential);
    return [
      { text: `${logs.length} Tor log line${logs.length === 1 ? '' : 's'}`, tone: 'primary' },
      ...logs.slice(-30).map<LogLine>((line) => ({ text: `  ${line}`, tone: 'fg' })),
    ];
  }
  if (action === 'connect') {
    const answer = await connectTor(credential);
    return [{ text: answer.message, tone: answer.success ? 'primary' : 'danger' }];
  }
  const entry = TOR_ACTIONS[action];
  if (!entry) return [];
  const answer = await runTorAction(entry.action, credential, entry.fallback);
  return [{ text: answer.message, tone: answer.success ? 'primary' : 'danger' }];
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : 'Request failed';
}

export function useAdminConsole({
  sessionToken,
  send,
  onFrame,
  onDataChanged,
}: AdminConsoleOptions): AdminConsole {
  const [lines, setLines] = useState<readonly LogLine[]>(WELCOME);
  const [isBusy, setBusy] = useState(false);
  // Whether the console itself asked for the user list (the Users tab asks too).
  const isAwaitingUsers = useRef(false);

  const append = useCallback((next: readonly LogLine[]) => {
    setLines((previous) => [...previous, ...next].slice(-CONSOLE_MAX_LINES));
  }, []);

  useEffect(() => {
    const offs = [
      onFrame('admin_error', (frame) =>
        append([{ text: `ADMIN_ERROR: ${frame.message}`, tone: 'danger' }]),
      ),
      onFrame('user_list', (frame) => {
        if (!isAwaitingUsers.current) return;
        isAwaitingUsers.current = false;
        append([
          {
            text: `${frame.users.length} user${frame.users.length === 1 ? '' : 's'} connected`,
            tone: 'primary',
          },
          ...frame.users.map<LogLine>((user) => ({
            text: `  ${user.username.padEnd(20)} ${user.role.padEnd(10)} ${user.isAuthenticated ? 'KEY ' : 'ANON'} ${user.nodeId.slice(0, 13)}`,
            tone: 'fg',
          })),
        ]);
      }),
      onFrame('admin_message', (frame) =>
        append([{ text: `[BROADCAST] ${frame.message}`, tone: 'accent' }]),
      ),
      onFrame('system_broadcast', (frame) =>
        append([
          {
            text: `[${frame.level === 'critical' ? 'SECURITY' : 'SYSTEM'}] ${frame.message}`,
            tone: frame.level === 'critical' ? 'danger' : 'accent',
          },
        ]),
      ),
      onFrame('emergency_shutdown_notice', (frame) =>
        append([{ text: `EMERGENCY SHUTDOWN: ${frame.reason}`, tone: 'danger' }]),
      ),
      onFrame('service_restored', (frame) =>
        append([{ text: `${TEXT.serviceRestored}: ${frame.message}`, tone: 'primary' }]),
      ),
    ];
    return () => {
      for (const off of offs) off();
    };
  }, [onFrame, append]);

  const runHttp = useCallback(
    async (command: ConsoleCommand) => {
      const credential: AdminCredential = { kind: 'admin-session', token: sessionToken };
      if (command.name === 'keygen') {
        append([{ text: `Generating key for ${command.request.username}...`, tone: 'muted' }]);
        const issued = await issueKey(command.request, credential);
        downloadKeyFile(issued.keyFile);
        if (issued.registered) {
          append([
            {
              text: `Key generated and registered: ${issued.keyFile.keyId} (${issued.keyFile.permissions.level}); ${issued.keyFile.username}.sck downloaded. It holds the private keys: store it safely.`,
              tone: 'primary',
            },
          ]);
          onDataChanged();
        } else {
          append([
            {
              text: `${TEXT.keyRegistrationWarningTitle}: ${TEXT.keyGeneratedNotRegistered} (${issued.reason})`,
              tone: 'danger',
            },
            {
              text: `The file ${issued.keyFile.username}.sck was downloaded anyway; it cannot log in until its public part is registered.`,
              tone: 'warning',
            },
          ]);
        }
      } else if (command.name === 'tor') {
        append(await runTor(command.action, credential));
      } else if (command.name === 'keys') {
        const { keys } = await fetchAdminKeys(credential);
        const now = new Date();
        append([
          { text: `${keys.length} key${keys.length === 1 ? '' : 's'} registered`, tone: 'primary' },
          ...keys.map<LogLine>((key) => ({
            text: `  ${shortKeyId(key.keyId)}  ${key.username.padEnd(18)} ${key.permissions.level.padEnd(8)} ${formatKeyExpiry(key.expires).padEnd(20)} ${keyState(key, now).toUpperCase()}`,
            tone: keyState(key, now) === 'active' ? 'fg' : 'muted',
          })),
        ]);
      } else if (command.name === 'revoke') {
        try {
          const answer = await revokeKey(command.keyId, credential);
          append([
            {
              text: `${TEXT.keyRevokedTitle}: ${shortKeyId(command.keyId)} (${answer.sessionsEnded} session${answer.sessionsEnded === 1 ? '' : 's'} ended)`,
              tone: 'warning',
            },
          ]);
          onDataChanged();
        } catch (error) {
          append([
            {
              text: `${TEXT.revocationFailedTitle}: ${TEXT.revocationFailed} (${errorText(error)})`,
              tone: 'danger',
            },
          ]);
        }
      } else if (command.name === 'audit') {
        const entries = await fetchAuditLog(credential, CONSOLE_AUDIT_LIMIT);
        append([
          { text: `Latest ${entries.length} audit entries`, tone: 'primary' },
          ...entries.map<LogLine>((entry) => ({
            text: `  ${formatAuditTime(entry.at)}  ${entry.action.padEnd(18)} ${entry.actor}  ${formatAuditDetail(entry.detail)}`,
            tone: 'fg',
          })),
        ]);
      }
    },
    [append, onDataChanged, sessionToken],
  );

  const run = useCallback(
    async (line: string) => {
      const parsed = parseConsoleCommand(line);
      if (parsed === null) return;
      append([{ text: `$ ${line.trim()}`, tone: 'muted' }]);
      if (!parsed.ok) {
        append([{ text: parsed.error, tone: 'danger' }]);
        return;
      }
      const { command } = parsed;
      if (command.name === 'clear') {
        setLines([]);
        return;
      }
      if (command.name === 'help') {
        append(
          CONSOLE_COMMANDS.map<LogLine>((help) => ({
            text: `  ${help.usage.padEnd(20)} ${help.description}`,
            tone: 'fg',
          })),
        );
        return;
      }
      const frame = consoleCommandFrame(command, sessionToken);
      if (frame) {
        if (frame.type === 'admin_list_users') isAwaitingUsers.current = true;
        if (send(frame)) append([{ text: `> ${frame.type} sent`, tone: 'muted' }]);
        else {
          isAwaitingUsers.current = false;
          append([{ text: 'Not connected to the relay: command not sent.', tone: 'danger' }]);
        }
        return;
      }
      setBusy(true);
      try {
        await runHttp(command);
      } catch (error) {
        append([{ text: `${command.name} failed: ${errorText(error)}`, tone: 'danger' }]);
      } finally {
        setBusy(false);
      }
    },
    [append, runHttp, send, sessionToken],
  );

  return { lines, isBusy, run };
}
