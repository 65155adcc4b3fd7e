import { useEffect, useState } from 'react';

/** This browser's clock, refreshed every `intervalMs` while `isActive` (for ages on screen). */
export function useNow(intervalMs: number, isActive = true): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    if (!isActive) return;
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs, isActive]);
  return now;
}
