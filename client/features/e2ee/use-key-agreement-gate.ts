/**
 * Holds the message input while the room's keys are being agreed ("Waiting for key agreement",
 * rather than a message that waits unseen), for at most KEY_AGREEMENT_WAIT_MS per wait: after that
 * the input opens again and a send falls back to the flagged PLAINTEXT type (spec 000 §8), so a
 * stalled key agreement can never lock the chat.
 */
import { useEffect, useMemo, useState } from 'react';
import { KEY_AGREEMENT_WAIT_MS } from './e2ee-constants.js';

/** True while the input should wait for the keys. */
export function useKeyAgreementGate(isWaiting: boolean, limitMs = KEY_AGREEMENT_WAIT_MS): boolean {
  // A new token for every stretch of waiting: the timer of an earlier stretch cannot end this one.
  const stretch = useMemo(() => (isWaiting ? { isWaiting } : null), [isWaiting]);
  const [expired, setExpired] = useState<object | null>(null);
  useEffect(() => {
    if (!stretch) return;
    const timer = window.setTimeout(() => setExpired(stretch), limitMs);
    return () => window.clearTimeout(timer);
  }, [stretch, limitMs]);
  return stretch !== null && expired !== stretch;
}
