/**
 * The member menu in the operatives list (issue 23): a button on a member's row opening the
 * moderation actions the viewer may take on them, and only those. A Radix dropdown menu, so it is
 * reachable and usable from the keyboard (Tab to the button, Enter or Space to open, arrows to
 * move, Enter to act, Escape to close). Kick and ban ask for confirmation first, naming the member
 * and how long (issue 33).
 */
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useState } from 'react';
import { DANGER_BUTTON } from '../../ui/admin-styles.js';
import { Bracketed, DIALOG_BUTTON_SECONDARY, TerminalDialog } from '../../ui/TerminalDialog.js';
import { confirmationOf, type MemberAction } from './member-actions.js';

export interface MemberMenuProps {
  username: string;
  actions: MemberAction[];
  onAction: (action: MemberAction) => void;
}

const ITEM_CLASS =
  'cursor-pointer px-3 py-2 text-xs tracking-wider text-fg outline-none data-[highlighted]:bg-primary/15 data-[highlighted]:text-primary';

export function MemberMenu({ username, actions, onAction }: MemberMenuProps) {
  const [pending, setPending] = useState<{ action: MemberAction; question: string } | null>(null);
  if (actions.length === 0) return null;
  const choose = (action: MemberAction) => {
    const question = confirmationOf(action, username);
    if (question === null) onAction(action);
    else setPending({ action, question });
  };
  return (
    <>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger
          aria-label={`Moderate ${username}`}
          data-testid="member-menu"
          className="shrink-0 rounded border border-border px-1.5 text-xs leading-4 text-muted hover:border-primary hover:text-primary focus-visible:border-primary focus-visible:text-primary focus-visible:outline-none"
        >
          ⋯
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            align="end"
            sideOffset={4}
            className="z-50 min-w-44 rounded border border-border bg-surface py-1 font-mono shadow-lg"
            data-testid="member-menu-content"
          >
            <DropdownMenu.Label className="px-3 py-1 text-xs tracking-widest text-muted uppercase">
              {username}
            </DropdownMenu.Label>
            {actions.map((action) => (
              <DropdownMenu.Item
                key={action.id}
                className={`${ITEM_CLASS} ${action.id.startsWith('ban') || action.id === 'kick' ? 'data-[highlighted]:text-danger' : ''}`}
                data-testid={`member-action-${action.id}`}
                onSelect={() => choose(action)}
              >
                {action.label}
              </DropdownMenu.Item>
            ))}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <TerminalDialog
        open={pending !== null}
        onOpenChange={(open) => {
          if (!open) setPending(null);
        }}
        title={pending ? `${pending.action.label}: ${username}` : 'Confirm'}
        description={pending?.question ?? ''}
        windowLabel="root@securechannel:~/moderation"
        tone="danger"
        widthClass="max-w-md"
        testId="member-action-confirm"
      >
        <div className="flex justify-end gap-2">
          <button
            type="button"
            className={DIALOG_BUTTON_SECONDARY}
            onClick={() => setPending(null)}
            autoFocus
          >
            <Bracketed>CANCEL</Bracketed>
          </button>
          <button
            type="button"
            className={DANGER_BUTTON}
            data-testid="member-action-confirm-button"
            onClick={() => {
              if (pending) onAction(pending.action);
              setPending(null);
            }}
          >
            <Bracketed>{pending?.action.label.toUpperCase() ?? 'CONFIRM'}</Bracketed>
          </button>
        </div>
      </TerminalDialog>
    </>
  );
}
