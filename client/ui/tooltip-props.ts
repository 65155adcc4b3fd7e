/** What a tooltip takes: shared by Tooltip.tsx and the lazily loaded RadixTooltip.tsx. */
import { type ReactElement, type ReactNode } from 'react';

export interface TooltipProps {
  content: ReactNode;
  /** One focusable element (a button or link); it becomes the trigger. */
  children: ReactElement;
}
