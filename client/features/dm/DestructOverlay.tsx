/**
 * The self-destruct overlay (spec 001 §2, §4): a full-screen notice with a bar that drains over
 * the sequence's length (3 s KILL SWITCH, 1.5 s expiry, 2 s deleted by the other party).
 */
import { useEffect, useState } from 'react';
import { DESTRUCT_TEXT, type DestructKind } from './destruct.js';

/** Literal classes, so Tailwind generates each duration. */
const DRAIN_DURATION: Record<DestructKind, string> = {
  manual: 'duration-[3000ms]',
  expired: 'duration-[1500ms]',
  remote: 'duration-[2000ms]',
};

export function DestructOverlay({ kind }: { kind: DestructKind }) {
  const [isDraining, setIsDraining] = useState(false);
  // Start the drain on the frame after the full bar is painted, so the transition runs.
  useEffect(() => {
    const frame = window.requestAnimationFrame(() => setIsDraining(true));
    return () => window.cancelAnimationFrame(frame);
  }, []);
  const text = DESTRUCT_TEXT[kind];
  return (
    <div
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="dm-destruct-title"
      aria-describedby="dm-destruct-detail"
      data-testid="dm-destruct-overlay"
      data-kind={kind}
      className="fixed inset-0 z-[60] flex items-center justify-center bg-background/90 p-6 backdrop-blur-sm"
    >
      <div className="w-full max-w-md border border-danger bg-surface p-6 text-center shadow-[0_0_60px_-10px_var(--sc-danger)]">
        <p aria-hidden="true" className="mb-3 animate-pulse text-4xl text-danger">
          ☢
        </p>
        <h2
          id="dm-destruct-title"
          className="sc-glow text-base font-bold tracking-[0.2em] text-danger sm:text-lg"
        >
          {text.title}
        </h2>
        <p id="dm-destruct-detail" className="mt-2 text-xs text-fg">
          {text.detail}
        </p>
        <div className="mt-5 h-1.5 overflow-hidden bg-danger/20" aria-hidden="true">
          <div
            className={`h-full bg-danger transition-[width] ease-linear ${DRAIN_DURATION[kind]} ${isDraining ? 'w-0' : 'w-full'}`}
          />
        </div>
      </div>
    </div>
  );
}
