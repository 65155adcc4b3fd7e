/**
 * Typing signals (spec 000 §4 "Typing", §9): typing_start on the first non-empty input,
 * typing_stop after TYPING_IDLE_MS without input, on send, or when the input is left empty.
 */
import { useCallback, useEffect, useRef } from 'react';
import { TYPING_IDLE_MS } from '../../../shared/constants.js';

export interface TypingSignal {
  /** Call with the input's text after every change. */
  onInput: (text: string) => void;
  /** Call when the message is sent. */
  onSent: () => void;
}

export function useTypingSignal(
  send: (type: 'typing_start' | 'typing_stop') => void,
  isEnabled: boolean,
): TypingSignal {
  const isTypingRef = useRef(false);
  const idleTimerRef = useRef<number | null>(null);
  const sendRef = useRef(send);

  useEffect(() => {
    sendRef.current = send;
  }, [send]);

  const stop = useCallback(() => {
    if (idleTimerRef.current !== null) window.clearTimeout(idleTimerRef.current);
    idleTimerRef.current = null;
    if (!isTypingRef.current) return;
    isTypingRef.current = false;
    sendRef.current('typing_stop');
  }, []);

  // Losing the room (disconnect, switch) ends typing silently: the server has forgotten it too.
  useEffect(() => {
    if (isEnabled) return;
    if (idleTimerRef.current !== null) window.clearTimeout(idleTimerRef.current);
    idleTimerRef.current = null;
    isTypingRef.current = false;
  }, [isEnabled]);

  useEffect(() => stop, [stop]);

  const onInput = useCallback(
    (text: string) => {
      if (!isEnabled) return;
      if (text.trim() === '') {
        stop();
        return;
      }
      if (!isTypingRef.current) {
        isTypingRef.current = true;
        sendRef.current('typing_start');
      }
      if (idleTimerRef.current !== null) window.clearTimeout(idleTimerRef.current);
      idleTimerRef.current = window.setTimeout(stop, TYPING_IDLE_MS);
    },
    [isEnabled, stop],
  );

  return { onInput, onSent: stop };
}
