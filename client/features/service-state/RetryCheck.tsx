/**
 * "Try again" / "Retry connection" on the notice pages: asks for the service state at once. When
 * the service is back the page returns the user (useServiceRestored.retry); otherwise it says so,
 * with the time of the check, instead of leading to a page that cannot load.
 */
import { useCallback, useState } from 'react';
import { type PublicServiceStatus } from '../../../shared/protocol/http/admin.js';

export function useRetryCheck(retry: () => Promise<PublicServiceStatus | null>) {
  const [isChecking, setChecking] = useState(false);
  const [stillDownAt, setStillDownAt] = useState<Date | null>(null);
  const run = useCallback(async () => {
    setChecking(true);
    try {
      const answer = await retry();
      if (answer?.status !== 'operational') setStillDownAt(new Date());
    } finally {
      setChecking(false);
    }
  }, [retry]);
  return { isChecking, stillDownAt, run };
}

export function StillDownNote({ checkedAt, testId }: { checkedAt: Date | null; testId: string }) {
  return (
    <p
      role="status"
      aria-live="polite"
      className="mt-3 min-h-4 text-xs text-muted"
      data-testid={testId}
    >
      {checkedAt
        ? `Still offline at ${checkedAt.toTimeString().slice(0, 8)}. This page returns you by itself once service is restored.`
        : ''}
    </p>
  );
}

/** Whole class names per tone, so that Tailwind sees every one of them. */
const RETRY_TONES = {
  danger: 'border-danger bg-danger/10 text-danger hover:bg-danger',
  warning: 'border-warning bg-warning/10 text-warning hover:bg-warning',
} as const;

/** The notice's retry button: `label`, or 'Checking...' while the state is asked for. */
export function RetryButton({
  check,
  label,
  tone,
  testId,
  className,
}: {
  check: ReturnType<typeof useRetryCheck>;
  label: string;
  tone: keyof typeof RETRY_TONES;
  testId: string;
  /** Placement classes (margin, width). */
  className: string;
}) {
  return (
    <button
      type="button"
      onClick={() => void check.run()}
      disabled={check.isChecking}
      data-testid={testId}
      className={`inline-flex min-h-11 items-center justify-center gap-2 border px-5 py-2 text-sm font-bold uppercase tracking-[0.2em] transition-colors hover:text-background disabled:opacity-60 ${RETRY_TONES[tone]} ${className}`}
    >
      <span aria-hidden="true">[</span>
      {check.isChecking ? 'Checking...' : label}
      <span aria-hidden="true">]</span>
    </button>
  );
}
