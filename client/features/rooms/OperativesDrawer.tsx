/**
 * Where the operatives list lives (spec 000 §2): a side panel from the 768 px breakpoint up, and
 * below it a drawer over the chat (a modal, so focus stays inside until it is closed).
 */
import * as Dialog from '@radix-ui/react-dialog';
import { MOBILE_BREAKPOINT_PX } from '../../../shared/constants.js';
import { type ReactNode } from 'react';
import type { RoomUser } from '../../../shared/protocol/ws/chat.js';
import { useMediaQuery } from '../../lib/use-media-query.js';
import { OperativesPanel } from './OperativesPanel.js';

export interface OperativesDrawerProps {
  isOpen: boolean;
  onClose: () => void;
  users: RoomUser[];
  currentNodeId: string | null;
  memberMenu?: (user: RoomUser) => ReactNode;
  toolbar?: ReactNode;
}

export function OperativesDrawer({
  isOpen,
  onClose,
  users,
  currentNodeId,
  memberMenu,
  toolbar,
}: OperativesDrawerProps) {
  const isWide = useMediaQuery(`(min-width: ${MOBILE_BREAKPOINT_PX}px)`);
  if (isWide) {
    return isOpen ? (
      <aside
        aria-label="Operatives"
        data-testid="operatives-aside"
        className="w-64 shrink-0 overflow-y-auto border-l border-border bg-surface"
      >
        <OperativesPanel
          users={users}
          currentNodeId={currentNodeId}
          memberMenu={memberMenu}
          toolbar={toolbar}
        />
      </aside>
    ) : null;
  }
  return (
    <Dialog.Root open={isOpen} onOpenChange={(open) => (open ? undefined : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-background/70" />
        <Dialog.Content
          data-testid="operatives-drawer"
          className="fixed inset-y-0 right-0 z-50 flex w-[min(20rem,85vw)] flex-col border-l border-border bg-surface font-mono text-fg outline-none"
        >
          <div className="flex items-center justify-between border-b border-border px-3 py-2">
            <Dialog.Title className="text-xs font-bold tracking-widest text-primary">
              OPERATIVES
            </Dialog.Title>
            <Dialog.Close className="px-1 text-xs text-muted hover:text-primary">
              <span aria-hidden="true">[x]</span>
              <span className="sr-only">Close operatives list</span>
            </Dialog.Close>
          </div>
          <Dialog.Description className="sr-only">
            The operatives connected to this channel.
          </Dialog.Description>
          <div className="min-h-0 flex-1 overflow-y-auto">
            <OperativesPanel
              users={users}
              currentNodeId={currentNodeId}
              memberMenu={memberMenu}
              toolbar={toolbar}
            />
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
