/**
 * The skip delay between tooltips (spec 000 §9: 300 ms). Each tooltip has its own Radix provider
 * (./RadixTooltip.tsx), so what one shared provider would keep is kept here: while a tooltip is
 * open, and until 300 ms after the last one closed, every tooltip opens without the 700 ms delay.
 */
import { TOOLTIP_SKIP_DELAY_MS } from '../../shared/constants.js';

export interface TooltipSkipDelay {
  /** True while the open delay is skipped. */
  isSkipped: () => boolean;
  subscribe: (listener: () => void) => () => void;
  opened: () => void;
  closed: () => void;
}

export function createTooltipSkipDelay(
  skipDelayMs: number = TOOLTIP_SKIP_DELAY_MS,
): TooltipSkipDelay {
  let openCount = 0;
  let skipped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const listeners = new Set<() => void>();
  const set = (next: boolean) => {
    if (skipped === next) return;
    skipped = next;
    for (const listener of [...listeners]) listener();
  };
  return {
    isSkipped: () => skipped,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    opened: () => {
      openCount += 1;
      clearTimeout(timer);
      set(true);
    },
    closed: () => {
      openCount = Math.max(0, openCount - 1);
      if (openCount > 0) return;
      clearTimeout(timer);
      timer = setTimeout(() => set(false), skipDelayMs);
    },
  };
}

/** The page's one skip delay, shared by every tooltip. */
export const tooltipSkipDelay = createTooltipSkipDelay();
