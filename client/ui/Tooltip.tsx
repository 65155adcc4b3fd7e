/**
 * Terminal-styled tooltips (spec 000 §9: open delay 700 ms, skip delay 300 ms). Tooltips show on
 * hover and focus only, so their code (Radix and floating-ui, ./RadixTooltip.tsx) is fetched when
 * the first one renders, not before the page paints (issue 22, target 5); meanwhile the trigger
 * renders as it is.
 */
import { Suspense } from 'react';
import { lazyComponent } from '../lib/lazy-component.js';
import { type TooltipProps } from './tooltip-props.js';

export type { TooltipProps } from './tooltip-props.js';

const RadixTooltip = lazyComponent(() => import('./RadixTooltip.js'), 'RadixTooltip');

export function Tooltip({ content, children }: TooltipProps) {
  return (
    <Suspense fallback={children}>
      <RadixTooltip content={content}>{children}</RadixTooltip>
    </Suspense>
  );
}
