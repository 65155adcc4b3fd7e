/** Terminal-styled tooltips on Radix (spec 000 §9: open delay 700 ms, skip delay 300 ms). */
import * as RadixTooltip from '@radix-ui/react-tooltip';
import { type ReactElement, type ReactNode } from 'react';
import { TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from '../../shared/constants.js';

export function TooltipProvider({ children }: { children: ReactNode }) {
  return (
    <RadixTooltip.Provider
      delayDuration={TOOLTIP_DELAY_MS}
      skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}
    >
      {children}
    </RadixTooltip.Provider>
  );
}

export interface TooltipProps {
  content: ReactNode;
  /** One focusable element (a button or link); it becomes the trigger. */
  children: ReactElement;
}

export function Tooltip({ content, children }: TooltipProps) {
  return (
    <RadixTooltip.Root>
      <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
      <RadixTooltip.Portal>
        <RadixTooltip.Content
          sideOffset={6}
          collisionPadding={8}
          className="sc-tooltip z-[110] max-w-xs border border-primary/60 bg-surface px-2.5 py-1.5 font-mono text-xs tracking-wider text-fg uppercase shadow-[0_0_12px_color-mix(in_srgb,var(--sc-primary)_25%,transparent)]"
        >
          {content}
          <RadixTooltip.Arrow className="fill-primary" width={10} height={5} />
        </RadixTooltip.Content>
      </RadixTooltip.Portal>
    </RadixTooltip.Root>
  );
}
