/**
 * The admin Tor tab's content (spec 001 §2 "Tor Network", §4 "Tor admin", §8): status fields
 * (running, socksPortOpen, controlPortOpen, hiddenServiceReady, onionAddress, circuits, uptime),
 * start, stop and restart, tor's last log lines, copy of the onion address, and the read-only
 * configuration. Polled every 10 s while the tab is open; refreshed 2 s after start, 1 s after
 * stop and 3 s after restart.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { TOR, TOR_DISPLAY_CONFIG } from '../../../shared/constants.js';
import { TOR_TEXT, type TorAdminStatus } from '../../../shared/protocol/http/tor.js';
import { toast } from '../../ui/use-toast.js';
import type { AdminCredential } from '../../lib/admin/admin-api.js';
import { BADGE, BADGE_TONE, SECTION_TITLE, TAG } from '../../ui/admin-styles.js';
import {
  fetchTorAdminStatus,
  fetchTorLogs,
  runTorAction,
  TorApiError,
  torQueryKeys,
} from './tor-api.js';
import { formatUptime } from './tor-progress.js';
import { OnionAddressCopy } from './OnionAddressCopy.js';

export interface TorAdminControlsProps {
  credential: AdminCredential;
  /** Polling runs only while the tab is open. */
  isActive: boolean;
}

const ACTIONS = {
  start: { label: 'Start', refreshMs: TOR.refreshAfterStartMs, failure: TOR_TEXT.startFailed },
  stop: { label: 'Stop', refreshMs: TOR.refreshAfterStopMs, failure: TOR_TEXT.stopFailed },
  restart: {
    label: 'Restart',
    refreshMs: TOR.refreshAfterRestartMs,
    failure: TOR_TEXT.restartFailed,
  },
} as const;
type AdminAction = keyof typeof ACTIONS;

const FLAGS: { key: keyof TorAdminStatus; label: string }[] = [
  { key: 'running', label: 'running' },
  { key: 'socksPortOpen', label: 'socksPortOpen' },
  { key: 'controlPortOpen', label: 'controlPortOpen' },
  { key: 'hiddenServiceReady', label: 'hiddenServiceReady' },
];

export function TorAdminControls({ credential, isActive }: TorAdminControlsProps) {
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: [...torQueryKeys.status(true), credential.kind, 'admin-tab'],
    queryFn: () => fetchTorAdminStatus(credential),
    refetchInterval: isActive ? TOR.adminPollMs : false,
    enabled: isActive,
    retry: false,
  });
  const logs = useQuery({
    queryKey: [...torQueryKeys.logs, credential.kind],
    queryFn: () => fetchTorLogs(credential),
    refetchInterval: isActive ? TOR.adminPollMs : false,
    enabled: isActive,
    retry: false,
  });
  const [busy, setBusy] = useState<AdminAction | null>(null);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  useEffect(() => () => timers.current.forEach(clearTimeout), []);

  const act = async (action: AdminAction) => {
    setBusy(action);
    try {
      const result = await runTorAction(action, credential, ACTIONS[action].failure);
      toast({ title: result.message, variant: result.success ? 'success' : 'destructive' });
    } catch (error) {
      const isNetwork = error instanceof TorApiError && error.status === null;
      toast({
        title: isNetwork ? TOR_TEXT.networkError : ACTIONS[action].failure,
        description: error instanceof Error ? error.message : undefined,
        variant: 'destructive',
      });
    } finally {
      setBusy(null);
      // The spec's refresh delays: start 2 s, stop 1 s, restart 3 s.
      timers.current.push(
        setTimeout(
          () => void queryClient.invalidateQueries({ queryKey: torQueryKeys.all }),
          ACTIONS[action].refreshMs,
        ),
      );
    }
  };

  const data = status.data ?? null;
  const isUnavailable = data?.state === 'unavailable';
  const configRows = [
    ['SOCKS port', String(data?.socksPort ?? TOR_DISPLAY_CONFIG.socksPort)],
    ['Control port', String(data?.controlPort ?? TOR_DISPLAY_CONFIG.controlPort)],
    [
      'Hidden service port',
      `${String(data?.servicePort ?? TOR_DISPLAY_CONFIG.hiddenServicePort)} (onion port 80)`,
    ],
    ['Exit policy', `${TOR_DISPLAY_CONFIG.exitPolicy} (reject all)`],
  ] as const;

  return (
    <div className="space-y-5">
      <section
        aria-labelledby="admin-tor-status"
        className="border border-border bg-background p-4"
        data-testid="tor-status"
      >
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 id="admin-tor-status" className={SECTION_TITLE}>
            Tor status
          </h3>
          <span
            className={`${BADGE} ${data?.running ? BADGE_TONE.primary : isUnavailable ? BADGE_TONE.warning : BADGE_TONE.muted}`}
            data-testid="tor-running"
          >
            {isUnavailable
              ? 'Unavailable'
              : data
                ? data.running
                  ? 'Running'
                  : 'Stopped'
                : status.isError
                  ? 'Unknown'
                  : 'Checking'}
          </span>
        </div>
        {status.isError ? (
          <p role="alert" className="mt-3 text-xs text-danger">
            {TOR_TEXT.fetchStatusFailed}: {status.error.message}
          </p>
        ) : null}
        {data?.message ? (
          <p
            role="status"
            className="mt-3 text-xs font-bold text-warning"
            data-testid="tor-message"
          >
            {data.message}
          </p>
        ) : null}
        <ul className="mt-3 flex flex-wrap gap-1.5" aria-label="Status flags">
          {FLAGS.map((flag) => (
            <li
              key={flag.key}
              className={`${TAG} ${data?.[flag.key] ? BADGE_TONE.primary : BADGE_TONE.muted}`}
              data-testid={`tor-flag-${flag.key}`}
            >
              {flag.label}: {data ? String(data[flag.key]) : '—'}
            </li>
          ))}
        </ul>
        <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-6 gap-y-1.5 text-xs">
          <dt className="text-muted uppercase">Onion address</dt>
          <OnionAddressCopy address={data?.onionAddress} testId="tor-admin-onion" />
          <dt className="text-muted uppercase">Circuits</dt>
          <dd className="text-fg">{data ? data.circuits : '—'}</dd>
          <dt className="text-muted uppercase">Uptime</dt>
          <dd className="text-fg" data-testid="tor-uptime">
            {data?.running ? `${formatUptime(data.uptime)} (${data.uptime} s)` : '—'}
          </dd>
          <dt className="text-muted uppercase">Network</dt>
          <dd className="text-fg">{data ? data.state : '—'}</dd>
          <dt className="text-muted uppercase">Version</dt>
          <dd className="text-fg">{data?.version ?? '—'}</dd>
        </dl>
        <div className="mt-4 flex flex-wrap gap-2">
          {(Object.keys(ACTIONS) as AdminAction[]).map((action) => (
            <button
              key={action}
              type="button"
              className="sc-btn min-h-10 px-3 py-2 text-xs"
              disabled={busy !== null || isUnavailable}
              onClick={() => void act(action)}
              data-testid={`tor-${action}`}
            >
              {busy === action ? `${ACTIONS[action].label}…` : ACTIONS[action].label}
            </button>
          ))}
        </div>
      </section>

      <section aria-labelledby="admin-tor-logs" className="border border-border bg-background p-4">
        <h3 id="admin-tor-logs" className={SECTION_TITLE}>
          Logs
        </h3>
        <pre
          className="mt-3 max-h-56 overflow-auto border border-border/60 bg-surface/40 p-2 text-[0.75rem] leading-relaxed whitespace-pre-wrap text-muted"
          data-testid="tor-logs"
          tabIndex={0}
        >
          {logs.data && logs.data.length > 0
            ? logs.data.slice(-60).join('\n')
            : 'No log lines yet.'}
        </pre>
      </section>

      <section
        aria-labelledby="admin-tor-config"
        className="border border-border bg-background p-4"
      >
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 id="admin-tor-config" className={SECTION_TITLE}>
            Configuration
          </h3>
          <span className={`${BADGE} ${BADGE_TONE.muted}`}>Read-only</span>
        </div>
        <dl
          className="mt-3 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-xs"
          data-testid="tor-config"
        >
          {configRows.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="text-muted uppercase">{label}</dt>
              <dd className="font-bold text-fg">{value}</dd>
            </div>
          ))}
        </dl>
      </section>
    </div>
  );
}
