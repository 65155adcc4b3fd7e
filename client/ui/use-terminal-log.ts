/**
 * An animated terminal log: lines appear one at a time, TERMINAL_LOG_LINE_DELAY_MS apart
 * (spec 000 §9). Typing stops when the component unmounts or the log is reset.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { TERMINAL_LOG_LINE_DELAY_MS } from '../../shared/constants.js';

export type LogTone = 'muted' | 'fg' | 'primary' | 'accent' | 'warning' | 'danger';

export interface LogLine {
  text: string;
  tone: LogTone;
}

/** Theme classes of each tone. */
export const LOG_TONE_CLASS: Record<LogTone, string> = {
  muted: 'text-muted',
  fg: 'text-fg',
  primary: 'text-primary',
  accent: 'text-accent',
  warning: 'text-warning',
  danger: 'font-bold text-danger',
};

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => window.setTimeout(resolve, ms));
}

export interface TerminalLog {
  lines: readonly LogLine[];
  /** Types `next` line by line; resolves true when all were shown, false if interrupted. */
  type: (next: readonly LogLine[]) => Promise<boolean>;
  /** Clears the log and interrupts any typing in progress. */
  reset: () => void;
}

export function useTerminalLog(initial: readonly LogLine[] = []): TerminalLog {
  const [lines, setLines] = useState<readonly LogLine[]>(initial);
  // Each reset or unmount starts a new generation; typing of an older one stops quietly.
  const generation = useRef(0);

  useEffect(() => {
    const current = generation;
    return () => {
      current.current += 1;
    };
  }, []);

  const type = useCallback(async (next: readonly LogLine[]) => {
    const mine = generation.current;
    for (const line of next) {
      await delay(TERMINAL_LOG_LINE_DELAY_MS);
      if (generation.current !== mine) return false;
      setLines((previous) => [...previous, line]);
    }
    return generation.current === mine;
  }, []);

  const reset = useCallback(() => {
    generation.current += 1;
    setLines([]);
  }, []);

  return { lines, type, reset };
}
