import { useEffect, useState } from 'react';

/**
 * Seconds since the chat connection opened; counts while connected and reads 0 otherwise
 * (spec 000 §4 "Chat connection": the session timer resets when the connection is lost).
 */
export function useSessionTimer(isConnected: boolean): number {
  const [seconds, setSeconds] = useState(0);
  const [wasConnected, setWasConnected] = useState(isConnected);

  // Start from zero on every new connection (React's "adjust state on prop change").
  if (wasConnected !== isConnected) {
    setWasConnected(isConnected);
    setSeconds(0);
  }

  useEffect(() => {
    if (!isConnected) return;
    const startedAt = Date.now();
    const timer = window.setInterval(
      () => setSeconds(Math.floor((Date.now() - startedAt) / 1000)),
      1000,
    );
    return () => window.clearInterval(timer);
  }, [isConnected]);

  return isConnected ? seconds : 0;
}
