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
