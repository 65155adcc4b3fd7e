/**
 * The operatives drawer of narrow screens (spec 000 §2): the list in a modal over the chat, so
 * focus stays inside until it is closed. Its own module: Radix Dialog loads only where it is used.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { OperativesPanel } from './OperativesPanel.js';
import { type OperativesDrawerProps } from './OperativesDrawer.js';

export function OperativesDrawerDialog({
  isOpen,
  onClose,
  users,
  currentNodeId,
  memberMenu,
  toolbar,
}: OperativesDrawerProps) {
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
