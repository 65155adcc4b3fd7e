/** The current time, re-read every `intervalMs` while `isActive`: for countdowns in render. */
import { useEffect, useState } from 'react';

export function useNow(intervalMs = 1000, isActive = true): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!isActive) return;
    const tick = () => setNow(Date.now());
    // Catch up at once when (re)activated, then keep ticking.
    const first = window.setTimeout(tick, 0);
    const timer = window.setInterval(tick, intervalMs);
    return () => {
      window.clearTimeout(first);
      window.clearInterval(timer);
    };
  }, [intervalMs, isActive]);
  return now;
}

/** The longest wait setTimeout keeps (about 24.8 days); a later deadline is waited for in steps. */
const LONGEST_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * Whether `deadlineMs` (a `Date.now()` time; null for none) has passed. Renders again once, when
 * it passes, instead of every second until then.
 */
export function useHasPassed(deadlineMs: number | null): boolean {
  const [passed, setPassed] = useState<number | null>(null);
  useEffect(() => {
    if (deadlineMs === null) return;
    let timer = 0;
    const arm = () => {
      const wait = deadlineMs - Date.now();
      if (!(wait > 0)) return setPassed(deadlineMs);
      timer = window.setTimeout(arm, Math.min(wait, LONGEST_TIMEOUT_MS));
    };
    timer = window.setTimeout(arm, 0);
    return () => window.clearTimeout(timer);
  }, [deadlineMs]);
  return deadlineMs !== null && Object.is(passed, deadlineMs);
}
