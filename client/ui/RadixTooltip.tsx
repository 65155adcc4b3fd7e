/**
 * The tooltip itself, on Radix (spec 000 §9: open delay 700 ms, skip delay 300 ms). Loaded by
 * `Tooltip` (./Tooltip.tsx) once a page shows one, not with the entry (issue 22, target 5).
 *
 * Each tooltip has its own Radix provider, since no provider can wrap the app before this module
 * has loaded. The skip delay between tooltips, which one provider would keep, is kept by
 * ./tooltip-skip-delay.ts: while it holds, every tooltip opens without the delay.
 */
import * as Radix from '@radix-ui/react-tooltip';
import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';
import { TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from '../../shared/constants.js';
import type { TooltipProps } from './tooltip-props.js';
import { tooltipSkipDelay } from './tooltip-skip-delay.js';

export function RadixTooltip({ content, children }: TooltipProps) {
  const { isSkipped, subscribe, opened, closed } = tooltipSkipDelay;
  const skipped = useSyncExternalStore(subscribe, isSkipped, isSkipped);
  const isOpen = useRef(false);
  const onOpenChange = useCallback(
    (open: boolean) => {
      if (open === isOpen.current) return;
      isOpen.current = open;
      if (open) opened();
      else closed();
    },
    [opened, closed],
  );
  // A tooltip unmounted while open counts as closed.
  useEffect(() => () => onOpenChange(false), [onOpenChange]);
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
