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
