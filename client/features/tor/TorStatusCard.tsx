/**
 * The Tor status card (spec 000 §2, §3, §4, §7): Disconnected, Connecting (a progress bar rising
 * 10 % a second up to 90 %) or Connected; circuits, bandwidth, the onion address with copy, and
 * whether the onion service answers (the server's own test, every 30 s while connected). Connect and disconnect
 * act with the admin credential the card is given; a connect failure is only logged (spec 000 §8).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { TOR } from '../../../shared/constants.js';
import type { AdminCredential } from '../../lib/admin/admin-api.js';
import { BADGE, BADGE_TONE, SECTION_TITLE } from '../../ui/admin-styles.js';
import { connectTor, runTorAction, torQueryKeys } from './tor-api.js';
import { formatBytes, nextConnectingProgress, torStateLabel } from './tor-progress.js';
import { OnionAddressCopy } from './OnionAddressCopy.js';
import { useTorAdminStatus } from './use-tor-status.js';

export interface TorStatusCardProps {
  credential: AdminCredential;
}

const STATE_TONE = {
  Connected: BADGE_TONE.primary,
  Connecting: BADGE_TONE.warning,
  Disconnected: BADGE_TONE.muted,
} as const;

export function TorStatusCard({ credential }: TorStatusCardProps) {
  const queryClient = useQueryClient();
  const status = useTorAdminStatus(credential, TOR.cardPollMs);
  const [isBusy, setBusy] = useState(false);
  const data = status.data ?? null;
  const label = data ? torStateLabel(data.state) : 'Disconnected';

  // The onion service tests itself on the server while connected (at the first circuit, then
  // every 30 s): `hiddenServiceReachable` in the polled status is that test's answer.

  const act = async (connect: boolean) => {
    setBusy(true);
    try {
      if (connect) {
        await connectTor(credential);
      } else {
        await runTorAction('disconnect', credential, 'Tor disconnect failed');
      }
    } catch (error) {
      // eslint-disable-next-line no-console -- spec 000 §8: a Tor connect failure is only logged
      console.warn(`[TOR] ${connect ? 'connect' : 'disconnect'} failed`, error);
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: torQueryKeys.all });
    }
  };

  return (
    <section
      aria-labelledby="tor-status-card-title"
      className="border border-border bg-background p-4"
      data-testid="tor-status-card"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="tor-status-card-title" className={SECTION_TITLE}>
          Tor network status
        </h3>
        <span className={`${BADGE} ${STATE_TONE[label]}`} data-testid="tor-state">
          {label}
        </span>
      </div>

      {status.isError ? (
        <p role="alert" className="mt-3 text-xs text-danger">
          {status.error.message}
        </p>
      ) : null}
      {data?.state === 'unavailable' ? (
        <p role="status" className="mt-3 text-xs text-warning">
          {data.message}
        </p>
      ) : null}

      {label === 'Connecting' ? (
        <ConnectingBar bootstrapProgress={data?.bootstrapProgress ?? 0} />
      ) : null}

      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-6 gap-y-1.5 text-xs">
        <dt className="text-muted uppercase">Circuits</dt>
        <dd className="font-bold text-fg" data-testid="tor-circuits">
          {data?.circuits ?? 0}
        </dd>
        <dt className="text-muted uppercase">Bandwidth</dt>
        <dd className="text-fg">
          ↓ {formatBytes(data?.bandwidth.read ?? 0)} · ↑ {formatBytes(data?.bandwidth.written ?? 0)}
        </dd>
        <dt className="text-muted uppercase">Onion service</dt>
        <dd className={data?.hiddenServiceReachable ? 'text-primary' : 'text-muted'}>
          {data?.hiddenServiceReachable ? 'Reachable' : 'Not reachable'}
        </dd>
        <dt className="text-muted uppercase">Onion address</dt>
        <OnionAddressCopy address={data?.onionAddress} testId="tor-onion-address" />
      </dl>

      <div className="mt-4 flex flex-wrap gap-2">
        {label === 'Disconnected' ? (
          <button
            type="button"
            className="sc-btn min-h-10 px-3 py-2 text-xs"
            disabled={isBusy || data?.state === 'unavailable'}
            onClick={() => void act(true)}
          >
            Connect
          </button>
        ) : (
          <button
            type="button"
            className="sc-btn min-h-10 px-3 py-2 text-xs"
            disabled={isBusy}
            onClick={() => void act(false)}
          >
            Disconnect
          </button>
        )}
      </div>
    </section>
  );
}

/** Mounted while connecting, so it starts at 0 each time: +10 % a second up to 90 % (spec 000 §4). */
function ConnectingBar({ bootstrapProgress }: { bootstrapProgress: number }) {
  const [progress, setProgress] = useState(0);
  useEffect(() => {
    const timer = setInterval(
      () => setProgress((current) => nextConnectingProgress(current)),
      TOR.progressStepMs,
    );
    return () => clearInterval(timer);
  }, []);
  return (
    <div className="mt-3" data-testid="tor-progress">
      <div
        role="progressbar"
        aria-label="Connecting to Tor"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress}
        className="h-2 w-full border border-warning/60 bg-surface"
      >
        <div className="h-full bg-warning transition-[width]" style={{ width: `${progress}%` }} />
      </div>
      <p className="mt-1 text-xs text-muted">
        {progress}% · tor bootstrap {bootstrapProgress}%
      </p>
    </div>
  );
}
