/**
 * The room admin's controls above the operatives list: lock or unlock the room, and open the
 * moderation log. Moderators and members see the lock state only.
 */
import { mayModerate, type ModerationRole } from '../../../shared/moderation/permissions.js';

export interface ModerationToolbarProps {
  role: ModerationRole;
  isLocked: boolean;
  onToggleLock: () => void;
  onOpenLog: () => void;
}

const BUTTON =
  'border border-border px-2 py-0.5 text-xs tracking-wider text-muted hover:border-primary hover:text-primary focus-visible:border-primary focus-visible:text-primary focus-visible:outline-none';

export function ModerationToolbar({
  role,
  isLocked,
  onToggleLock,
  onOpenLog,
}: ModerationToolbarProps) {
  const isAdmin = mayModerate(role, 'view_log');
  if (!isAdmin && !isLocked) return null;
  return (
    <div
      className="flex flex-wrap items-center gap-2 border-b border-border px-2 py-1.5 font-mono"
      data-testid="moderation-toolbar"
    >
      <span
        className={`flex-1 text-xs tracking-widest ${isLocked ? 'text-warning' : 'text-muted'}`}
        data-testid="room-lock-state"
      >
        {isLocked ? 'LOCKED' : 'OPEN'}
      </span>
      {isAdmin ? (
        <>
          <button
            type="button"
            className={BUTTON}
            onClick={onToggleLock}
            data-testid="room-lock-toggle"
          >
            {isLocked ? 'UNLOCK' : 'LOCK'}
          </button>
          <button
            type="button"
            className={BUTTON}
            onClick={onOpenLog}
            data-testid="open-moderation-log"
          >
            MOD LOG
          </button>
        </>
      ) : null}
    </div>
  );
}
