/**
 * Where an emergency_shutdown_notice sends every client (spec 001 §2): a static lockdown notice.
 * It is also what every other route shows while the service is down (ServiceStateGate), with
 * `returnTo` the path the user was on.
 *
 * The page keeps listening (useServiceRestored: its own socket and a poll of the service state):
 * once the service is back it shows 'SERVICE RESTORED' and after 2 s returns the user to where
 * they were. "Try again" asks for the state at once: back when it is restored, otherwise the
 * page says it is still down. ADMIN ACCESS opens the emergency admin panel, because the admin
 * who ran the shutdown from the chat lands here too and restores from here (with the admin
 * password, or their admin key).
 */
import { useState } from 'react';
import { TEXT } from '../../../shared/protocol/errors.js';
import { useServiceRestored } from '../admin/index.js';
import { RetryButton, StillDownNote, useRetryCheck } from './RetryCheck.js';
import { ServiceDownFrame } from './ServiceDownFrame.js';

/** A warning triangle drawn with CSS, so it follows the theme's danger colour. */
function AlertGlyph() {
  return (
    <div aria-hidden="true" className="relative mx-auto size-20 sm:size-24">
      <div className="absolute inset-0 animate-pulse bg-danger/25 blur-xl" />
      <div className="absolute inset-0 bg-danger [clip-path:polygon(50%_4%,98%_94%,2%_94%)]" />
      <div className="absolute inset-[9px] bg-surface [clip-path:polygon(50%_8%,94%_91%,6%_91%)] sm:inset-[11px]" />
      <span className="absolute inset-x-0 bottom-[18%] text-center text-3xl font-black leading-none text-danger sm:text-4xl">
        !
      </span>
    </div>
  );
}

export function EmergencyShutdownPage({ returnTo = null }: { returnTo?: string | null }) {
  const { restoredMessage, destination, retry } = useServiceRestored(returnTo);
  const [isAdminOpen, setAdminOpen] = useState(false);
  const check = useRetryCheck(retry);
  return (
    <ServiceDownFrame
      tone="danger"
      status="Lockdown"
      restoredMessage={restoredMessage}
      widthClass="max-w-xl"
      isAdminOpen={isAdminOpen}
      onAdminOpenChange={setAdminOpen}
      afterRestorePath={destination}
      footer={
        <footer className="flex flex-wrap items-center justify-between gap-2 border-t border-border px-4 py-3 text-xs uppercase tracking-[0.25em] text-muted sm:px-6">
          <span>Status: emergency · channels closed</span>
          <button
            type="button"
            onClick={() => setAdminOpen(true)}
            data-testid="admin-access"
            className="min-h-9 border border-border px-3 py-1 tracking-[0.2em] text-muted transition-colors hover:border-danger hover:text-danger"
          >
            <span aria-hidden="true">[</span>
            {TEXT.adminAccess}
            <span aria-hidden="true">]</span>
          </button>
        </footer>
      }
    >
      <div
        data-testid="emergency-shutdown-notice"
        className="w-full max-w-xl border border-danger/70 bg-surface p-6 text-center shadow-[0_0_60px_-20px_var(--sc-danger)] sm:p-10"
      >
        <AlertGlyph />
        <p className="mt-6 text-xs uppercase tracking-[0.35em] text-muted">
          Emergency protocol active
        </p>
        <h1 className="mt-2 text-2xl font-bold uppercase tracking-[0.15em] text-danger [text-shadow:0_0_16px_color-mix(in_srgb,var(--sc-danger)_60%,transparent)] sm:text-3xl">
          Emergency shutdown
        </h1>

        <div className="mx-auto mt-6 max-w-sm space-y-1 border-y border-danger/40 py-4 text-left text-xs sm:text-sm">
          <p className="text-danger">
            <span aria-hidden="true">&gt; </span>
            {TEXT.connectionTerminated}
          </p>
          <p className="text-warning">
            <span aria-hidden="true">&gt; </span>
            {TEXT.allChannelsClosed}
          </p>
        </div>

        <p className="mt-6 text-sm leading-relaxed text-fg">
          An administrator has shut the service down. Open sessions were disconnected and no channel
          accepts messages until service is restored. {TEXT.tryAgainInFewMinutes}
        </p>

        <RetryButton
          check={check}
          label="Try again"
          tone="danger"
          testId="emergency-shutdown-retry"
          className="mt-8"
        />
        <StillDownNote checkedAt={check.stillDownAt} testId="emergency-still-down" />
      </div>
    </ServiceDownFrame>
  );
}
