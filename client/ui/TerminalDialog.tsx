/**
 * The frame every channel dialog shares: a Radix modal (focus trapped, Escape closes, title and
 * description announced) drawn as a terminal window in the theme's colours.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { type ReactNode } from 'react';

export type TerminalDialogTone = 'primary' | 'danger' | 'warning';

export interface TerminalDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** One sentence saying what the dialog is for; announced with the title. */
  description: ReactNode;
  /** Text in the window's title bar, e.g. `root@securechannel:~/channels`. */
  windowLabel?: string;
  /** Right side of the title bar, e.g. a status word. */
  status?: ReactNode;
  tone?: TerminalDialogTone;
  /** When false, Escape and outside clicks do nothing and the close button is hidden. */
  isDismissable?: boolean;
  /** Tailwind max-width class of the window. */
  widthClass?: string;
  testId?: string;
  children: ReactNode;
}

const FRAME_TONE: Record<TerminalDialogTone, string> = {
  primary: 'border-primary/60 shadow-[0_0_48px_-18px_var(--sc-primary)]',
  danger: 'border-danger/70 shadow-[0_0_48px_-18px_var(--sc-danger)]',
  warning: 'border-warning/70 shadow-[0_0_48px_-18px_var(--sc-warning)]',
};

const TITLE_TONE: Record<TerminalDialogTone, string> = {
  primary: 'text-primary',
  danger: 'text-danger',
  warning: 'text-warning',
};

export function TerminalDialog({
  open,
  onOpenChange,
  title,
  description,
  windowLabel = 'root@securechannel:~',
  status = null,
  tone = 'primary',
  isDismissable = true,
  widthClass = 'max-w-lg',
  testId,
  children,
}: TerminalDialogProps) {
  const blockWhenLocked = (event: Event) => {
    if (!isDismissable) event.preventDefault();
  };
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-background/80 backdrop-blur-[2px]" />
        <Dialog.Content
          data-testid={testId}
          onEscapeKeyDown={blockWhenLocked}
          onPointerDownOutside={blockWhenLocked}
          onInteractOutside={blockWhenLocked}
          className={`fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-1.5rem)] w-[calc(100vw-1.5rem)] -translate-x-1/2 -translate-y-1/2 flex-col border bg-surface font-mono text-fg outline-none ${widthClass} ${FRAME_TONE[tone]}`}
        >
          <div className="flex items-center justify-between gap-3 border-b border-border px-3 py-1.5 text-xs tracking-[0.2em] text-muted uppercase">
            <span className="flex min-w-0 items-center gap-1.5" aria-hidden="true">
              <span className="size-2 shrink-0 rounded-full bg-danger/80" />
              <span className="size-2 shrink-0 rounded-full bg-warning/70" />
              <span className="size-2 shrink-0 rounded-full bg-primary/60" />
              <span className="ml-2 truncate normal-case">{windowLabel}</span>
            </span>
            <span className="flex shrink-0 items-center gap-2">
              {status}
              {isDismissable ? (
                <Dialog.Close className="px-1 text-muted hover:text-primary">
                  <span aria-hidden="true">[x]</span>
                  <span className="sr-only">Close</span>
                </Dialog.Close>
              ) : null}
            </span>
          </div>
          <div className="min-h-0 overflow-y-auto px-4 py-4 sm:px-5">
            <Dialog.Title
              className={`text-sm font-bold tracking-[0.2em] uppercase sm:text-base ${TITLE_TONE[tone]}`}
            >
              {title}
            </Dialog.Title>
            <Dialog.Description className="mt-1 text-xs leading-relaxed text-muted">
              {description}
            </Dialog.Description>
            <div className="mt-4">{children}</div>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** A bracketed terminal button class for dialogs' action rows. */
export const DIALOG_BUTTON = 'sc-btn min-h-10 px-3 py-2 text-xs';

/** The secondary (abort/cancel) variant; utilities outrank `.sc-btn`'s component layer. */
export const DIALOG_BUTTON_SECONDARY =
  'sc-btn min-h-10 px-3 py-2 text-xs border-border bg-transparent text-muted hover:text-fg';

/** Button text between brackets that assistive technology does not read: `[ CONFIRM ]`. */
export function Bracketed({ children }: { children: ReactNode }) {
  return (
    <>
      <span aria-hidden="true">[</span>
      {children}
      <span aria-hidden="true">]</span>
    </>
  );
}

export interface CancelSubmitRowProps {
  onCancel: () => void;
  cancelLabel?: string;
  /** The submit button's text, and while `isBusy` the text that replaces it. */
  submitLabel: string;
  busyLabel: string;
  isBusy: boolean;
  /** Disables the submit button beyond `isBusy` (e.g. an incomplete form). */
  canSubmit?: boolean;
  cancelTestId?: string;
  submitTestId?: string;
  /** Extra classes of the row (spacing above it). */
  className?: string;
}

/** A form dialog's action row: a cancel button, then the submit button that names the action. */
export function CancelSubmitRow({
  onCancel,
  cancelLabel = 'Cancel',
  submitLabel,
  busyLabel,
  isBusy,
  canSubmit = true,
  cancelTestId,
  submitTestId,
  className = 'pt-2',
}: CancelSubmitRowProps) {
  return (
    <div className={`flex flex-wrap justify-end gap-2 ${className}`}>
      <button
        type="button"
        className={DIALOG_BUTTON_SECONDARY}
        onClick={onCancel}
        data-testid={cancelTestId}
      >
        <Bracketed>{cancelLabel}</Bracketed>
      </button>
      <button
        type="submit"
        className={DIALOG_BUTTON}
        disabled={isBusy || !canSubmit}
        data-testid={submitTestId}
      >
        <Bracketed>{isBusy ? busyLabel : submitLabel}</Bracketed>
      </button>
    </div>
  );
}
