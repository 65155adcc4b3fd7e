/**
 * The tooltip itself, on Radix (spec 000 §9: open delay 700 ms, skip delay 300 ms). Loaded by
 * `Tooltip` (./Tooltip.tsx) once a page shows one, not with the entry (issue 22, target 5).
 *
 * Each tooltip has its own Radix provider, since no provider can wrap the app before this module
 * has loaded. The skip delay between tooltips, which one provider would keep, is kept here: while
 * a tooltip is open and for 300 ms after it closed, every tooltip opens without the delay.
 */
import * as Radix from '@radix-ui/react-tooltip';
import { useCallback, useSyncExternalStore } from 'react';
import { TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from '../../shared/constants.js';
import type { TooltipProps } from './Tooltip.js';

let openCount = 0;
let skipUntilClosed = false;
let skipTimer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

function setSkip(next: boolean): void {
  if (skipUntilClosed === next) return;
  skipUntilClosed = next;
  for (const listener of [...listeners]) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** True while the open delay is skipped: a tooltip is open, or one closed less than 300 ms ago. */
function isDelaySkipped(): boolean {
  return skipUntilClosed;
}

function tooltipOpened(): void {
  openCount += 1;
  clearTimeout(skipTimer);
  setSkip(true);
}

function tooltipClosed(): void {
  openCount = Math.max(0, openCount - 1);
  if (openCount > 0) return;
  clearTimeout(skipTimer);
  skipTimer = setTimeout(() => setSkip(false), TOOLTIP_SKIP_DELAY_MS);
}

export function RadixTooltip({ content, children }: TooltipProps) {
  const skipped = useSyncExternalStore(subscribe, isDelaySkipped, isDelaySkipped);
  const onOpenChange = useCallback((open: boolean) => {
    if (open) tooltipOpened();
    else tooltipClosed();
  }, []);
  return (
    <Radix.Provider
      delayDuration={skipped ? 0 : TOOLTIP_DELAY_MS}
      skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}
    >
      <Radix.Root onOpenChange={onOpenChange}>
        <Radix.Trigger asChild>{children}</Radix.Trigger>
        <Radix.Portal>
          <Radix.Content
            sideOffset={6}
            collisionPadding={8}
            className="sc-tooltip z-[110] max-w-xs border border-primary/60 bg-surface px-2.5 py-1.5 font-mono text-xs tracking-wider text-fg uppercase shadow-[0_0_12px_color-mix(in_srgb,var(--sc-primary)_25%,transparent)]"
          >
            {content}
            <Radix.Arrow className="fill-primary" width={10} height={5} />
          </Radix.Content>
        </Radix.Portal>
      </Radix.Root>
    </Radix.Provider>
  );
}
