/**
 * Renders the toast store with Radix Toast (spec 000 §9): default duration 5000 ms, swipe right
 * past 50 px to dismiss, F8 focuses the region, at most 420 px wide.
 */
import * as RadixToast from '@radix-ui/react-toast';
import {
  TOAST_DURATION_MS,
  TOAST_HOTKEY,
  TOAST_SWIPE_THRESHOLD_PX,
} from '../../shared/constants.js';
import { useToast, type ToastVariant } from './use-toast.js';

const VARIANT_STYLE: Record<ToastVariant, { frame: string; title: string; tag: string }> = {
  default: { frame: 'border-primary/60', title: 'text-primary', tag: '[i]' },
  destructive: { frame: 'border-danger', title: 'text-danger', tag: '[!]' },
  success: { frame: 'border-primary', title: 'text-primary', tag: '[✓]' },
};

export function Toaster() {
  const { toasts, dismiss } = useToast();
  return (
    <RadixToast.Provider
      swipeDirection="right"
      swipeThreshold={TOAST_SWIPE_THRESHOLD_PX}
      duration={TOAST_DURATION_MS}
      label="Notifications"
    >
      {toasts.map((item) => {
        const style = VARIANT_STYLE[item.variant ?? 'default'];
        return (
          <RadixToast.Root
            key={item.id}
            open={item.open}
            duration={item.duration}
            type={item.variant === 'destructive' ? 'foreground' : 'background'}
            onOpenChange={(isOpen) => {
              if (!isOpen) dismiss(item.id);
            }}
            data-variant={item.variant ?? 'default'}
            className={`sc-toast sc-panel relative flex w-full items-start gap-3 border py-3 pr-10 pl-3 font-mono shadow-[0_0_18px_color-mix(in_srgb,var(--sc-primary)_18%,transparent)] ${style.frame}`}
          >
            <span aria-hidden="true" className={`text-sm font-bold ${style.title}`}>
              {style.tag}
            </span>
            <div className="min-w-0 flex-1">
              <RadixToast.Title
                className={`text-sm font-bold tracking-wider break-words uppercase ${style.title}`}
              >
                {item.title}
              </RadixToast.Title>
              {item.description ? (
                <RadixToast.Description className="mt-1 text-xs break-words text-fg">
                  {item.description}
                </RadixToast.Description>
              ) : null}
            </div>
            <RadixToast.Close className="absolute top-2 right-2 px-1 text-xs text-muted hover:text-primary">
              <span aria-hidden="true">[x]</span>
              <span className="sr-only">Close notification</span>
            </RadixToast.Close>
          </RadixToast.Root>
        );
      })}
      <RadixToast.Viewport
        hotkey={[TOAST_HOTKEY]}
        className="fixed right-0 bottom-0 z-[100] m-0 flex w-full max-w-[420px] list-none flex-col gap-2 p-4 outline-none"
      />
    </RadixToast.Provider>
  );
}
