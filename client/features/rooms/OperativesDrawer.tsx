/**
 * Where the operatives list lives (spec 000 §2): a side panel from the 768 px breakpoint up, and
 * below it a drawer over the chat (a modal, so focus stays inside until it is closed).
 */
import { MOBILE_BREAKPOINT_PX } from '../../../shared/constants.js';
import { Suspense, type ReactNode } from 'react';
import { type RoomUser } from '../../../shared/protocol/ws/chat.js';
import { lazyComponent } from '../../lib/lazy-component.js';
import { useMediaQuery } from '../../lib/use-media-query.js';

// The list (closed when the room opens) and the drawer of narrow screens (Radix Dialog) are
// fetched the first time they are shown.
const OperativesPanel = lazyComponent(() => import('./OperativesPanel.js'), 'OperativesPanel');
const OperativesDrawerDialog = lazyComponent(
  () => import('./OperativesDrawerDialog.js'),
  'OperativesDrawerDialog',
);

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
        <Suspense fallback={null}>
          <OperativesPanel
            users={users}
            currentNodeId={currentNodeId}
            memberMenu={memberMenu}
            toolbar={toolbar}
          />
        </Suspense>
      </aside>
    ) : null;
  }
  if (!isOpen) return null;
  return (
    <Suspense fallback={null}>
      <OperativesDrawerDialog
        isOpen
        onClose={onClose}
        users={users}
        currentNodeId={currentNodeId}
        memberMenu={memberMenu}
        toolbar={toolbar}
      />
    </Suspense>
  );
}
