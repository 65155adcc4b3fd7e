/**
 * Where a room lookup answering 404 leads (spec 001 §2): a terminal log typed one line every
 * DESTROYED_LOG_INTERVAL_MS, ending in the spec's four verdict lines, and two ways back to `/`.
 */
import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { DESTROYED_LOG_INTERVAL_MS } from '../../../shared/constants.js';
import { TEXT } from '../../../shared/protocol/errors.js';

type LineTone = 'muted' | 'fg' | 'danger' | 'warning';

interface LogLine {
  text: string;
  tone: LineTone;
}

/** The log, in typing order; the last four lines are the spec's verdict. */
const LOG_LINES: readonly LogLine[] = [
  { text: '> INITIATING SECURE LINK...', tone: 'muted' },
  { text: '> HANDSHAKE COMPLETE', tone: 'muted' },
  { text: '> QUERYING CHANNEL REGISTRY...', tone: 'fg' },
  { text: '> RESOLVING SECURE ID...', tone: 'fg' },
  { text: '> SCANNING MESSAGE BUFFERS... 0 FOUND', tone: 'fg' },
  { text: '> VERIFYING DESTRUCTION RECORD...', tone: 'fg' },
  { text: `ERROR: ${TEXT.channelNotFound}`, tone: 'danger' },
  { text: `REASON: ${TEXT.selfDestructExecuted}`, tone: 'warning' },
  { text: `STATUS: ${TEXT.permanentlyDestroyed}`, tone: 'warning' },
  { text: TEXT.allDataPurged, tone: 'danger' },
];

const TONE_CLASS: Record<LineTone, string> = {
  muted: 'text-muted',
  fg: 'text-fg',
  danger: 'font-bold text-danger',
  warning: 'text-warning',
};

const BUTTON =
  'inline-flex min-h-11 items-center justify-center gap-2 border px-3 py-2 text-xs font-bold uppercase tracking-[0.08em] transition-colors duration-150 sm:text-sm';

/** The number of log lines shown so far, one more every interval until all are shown. */
function useTypedLineCount(total: number, intervalMs: number): number {
  const [count, setCount] = useState(0);
  useEffect(() => {
    if (count >= total) return;
    const timer = window.setTimeout(() => setCount(count + 1), intervalMs);
    return () => window.clearTimeout(timer);
  }, [count, total, intervalMs]);
  return count;
}

export function ChannelDestroyedPage() {
  const [, navigate] = useLocation();
  const shown = useTypedLineCount(LOG_LINES.length, DESTROYED_LOG_INTERVAL_MS);
  const isComplete = shown >= LOG_LINES.length;

  return (
    <div className="flex min-h-screen flex-col bg-background font-mono text-fg">
      <header className="border-b border-border px-4 py-3 text-xs uppercase tracking-[0.25em] text-muted sm:px-6">
        <span className="font-bold text-primary">SecureChannel</span>
        <span aria-hidden="true"> {'//'} </span>
        channel registry
      </header>

      <main className="flex flex-1 items-center justify-center px-4 py-10 sm:px-6">
        <div className="w-full max-w-3xl border border-danger/60 bg-surface shadow-[0_0_48px_-20px_var(--sc-danger)]">
          <div
            aria-hidden="true"
            className="flex items-center justify-between gap-3 border-b border-danger/40 px-4 py-2 text-xs uppercase tracking-[0.25em] text-muted"
          >
            <span className="flex items-center gap-1.5">
              <span className="size-2 rounded-full bg-danger" />
              <span className="size-2 rounded-full bg-warning/60" />
              <span className="size-2 rounded-full bg-primary/40" />
              <span className="ml-2 hidden sm:inline">root@securechannel:~</span>
            </span>
            <span className={isComplete ? 'text-danger' : undefined}>
              {isComplete ? 'TERMINATED' : 'RUNNING'}
            </span>
          </div>

          <div className="p-5 sm:p-8">
            <h1 className="text-xl font-bold uppercase tracking-[0.2em] text-danger [text-shadow:0_0_14px_color-mix(in_srgb,var(--sc-danger)_60%,transparent)] sm:text-2xl">
              Channel destroyed
            </h1>

            <div
              role="log"
              aria-label="Channel lookup log"
              data-testid="channel-destroyed-log"
              className="mt-6 min-h-[15rem] border border-border bg-background p-4 text-xs leading-relaxed sm:text-sm"
            >
              {LOG_LINES.slice(0, shown).map((line) => (
                <p key={line.text} className={`break-words ${TONE_CLASS[line.tone]}`}>
                  {line.text}
                </p>
              ))}
              <span aria-hidden="true" className="inline-block animate-pulse text-primary">
                █
              </span>
            </div>

            <div className="mt-6 grid gap-3 sm:grid-cols-2">
              <button
                type="button"
                onClick={() => navigate('/')}
                data-testid="channel-destroyed-return"
                className={`${BUTTON} border-primary bg-primary/10 text-primary shadow-[0_0_18px_-8px_var(--sc-primary)] hover:bg-primary hover:text-background`}
              >
                <span aria-hidden="true">[</span>
                {TEXT.returnToPublicChannel}
                <span aria-hidden="true">]</span>
              </button>
              <button
                type="button"
                onClick={() => navigate('/')}
                data-testid="channel-destroyed-create"
                className={`${BUTTON} border-border text-fg hover:border-primary hover:text-primary`}
              >
                <span aria-hidden="true">[</span>
                {TEXT.createNewChannel}
                <span aria-hidden="true">]</span>
              </button>
            </div>
          </div>
        </div>
      </main>

      <footer className="border-t border-border px-4 py-3 text-xs uppercase tracking-[0.25em] text-muted sm:px-6">
        Destroyed channels cannot be recovered
      </footer>
    </div>
  );
}
