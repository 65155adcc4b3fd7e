/**
 * The room participant list (spec 000 §2, §3 "Room user", §6): collapsible, with a search box.
 * Each row shows the callsign, its status (online, typing, away), a role badge (moderator shield,
 * admin badge), a key mark for key holders, a KEY ENTRY badge for members whose key let them
 * into a locked room without its access code (issue 31; the server's word, see RoomUser.entry),
 * and "(you)" for this tab's node.
 */
import { useId, useState, type ReactNode } from 'react';
import type { RoomUser } from '../../../shared/protocol/ws/chat.js';
import { filterOperatives } from './operatives.js';

export interface OperativesPanelProps {
  users: RoomUser[];
  /** This tab's node id (from room_joined), to mark "(you)". */
  currentNodeId: string | null;
  /** A member's menu of actions (moderation), or nothing; shown at the end of the row. */
  memberMenu?: (user: RoomUser) => ReactNode;
  /** Controls shown under the heading (moderation: lock, moderation log). */
  toolbar?: ReactNode;
}

const STATUS: Record<RoomUser['status'], { label: string; dot: string; text: string }> = {
  online: { label: 'ONLINE', dot: 'bg-primary', text: 'text-primary' },
  typing: { label: 'TYPING...', dot: 'bg-accent animate-pulse', text: 'text-accent' },
  away: { label: 'AWAY', dot: 'bg-muted', text: 'text-muted' },
};

function ShieldIcon() {
  return (
    <svg viewBox="0 0 16 16" className="size-3" aria-hidden="true" fill="currentColor">
      <path d="M8 1 2.5 3v4.2c0 3.4 2.3 6.4 5.5 7.8 3.2-1.4 5.5-4.4 5.5-7.8V3L8 1Zm0 1.6 4 1.5v3.1c0 2.6-1.6 5-4 6.2V2.6Z" />
    </svg>
  );
}

/** What the KEY ENTRY badge means, as its tooltip and for screen readers. */
export const KEY_ENTRY_DESCRIPTION = 'entered with a key, without the access code';

function RoleBadge({ role }: { role: RoomUser['role'] }) {
  if (role === 'moderator') {
    return (
      <span
        className="inline-flex items-center gap-0.5 border border-secondary/70 px-1 text-xs tracking-wider text-secondary"
        title="Moderator"
      >
        <ShieldIcon />
        MOD
      </span>
    );
  }
  if (role === 'admin') {
    return (
      <span
        className="border border-danger/70 bg-danger/10 px-1 text-xs font-bold tracking-wider text-danger"
        title="Administrator"
      >
        ADMIN
      </span>
    );
  }
  return null;
}

export function OperativesPanel({
  users,
  currentNodeId,
  memberMenu,
  toolbar = null,
}: OperativesPanelProps) {
  const ids = useId();
  const [isOpen, setIsOpen] = useState(true);
  const [search, setSearch] = useState('');
  const shown = filterOperatives(users, search, currentNodeId);

  return (
    <section
      aria-labelledby={`${ids}-heading`}
      className="flex min-h-0 flex-col font-mono"
      data-testid="operatives-panel"
    >
      <h2 id={`${ids}-heading`} className="border-b border-border">
        <button
          type="button"
          aria-expanded={isOpen}
          aria-controls={`${ids}-body`}
          onClick={() => setIsOpen((open) => !open)}
          className="flex w-full items-center gap-2 px-3 py-2 text-left text-xs tracking-widest text-muted uppercase hover:text-primary"
        >
          <span aria-hidden="true">{isOpen ? '▾' : '▸'}</span>
          <span className="flex-1">Operatives</span>
          <span className="text-primary" data-testid="operatives-count">
            {users.length}
          </span>
          <span className="sr-only"> connected</span>
        </button>
      </h2>
      {isOpen ? (
        <div id={`${ids}-body`} className="flex min-h-0 flex-1 flex-col">
          {toolbar}
          <div className="border-b border-border p-2">
            <label htmlFor={`${ids}-search`} className="sr-only">
              Search operatives
            </label>
            <input
              id={`${ids}-search`}
              type="search"
              value={search}
              placeholder="> search callsign"
              autoComplete="off"
              spellCheck={false}
              onChange={(event) => setSearch(event.currentTarget.value)}
              className="w-full border border-border bg-background px-2 py-1 text-xs text-fg placeholder:text-muted/70 focus:border-primary focus:outline-none"
            />
            {search.trim() !== '' ? (
              <p className="mt-1 text-xs text-muted" role="status">
                {shown.length} of {users.length} shown
              </p>
            ) : null}
          </div>
          <ul className="min-h-0 flex-1 overflow-y-auto py-1" aria-label="Connected operatives">
            {shown.map((user) => {
              const status = STATUS[user.status];
              const isYou = user.nodeId === currentNodeId;
              return (
                <li
                  key={user.nodeId}
                  className={`flex items-center gap-2 px-3 py-1.5 text-xs ${isYou ? 'bg-primary/10' : ''}`}
                  data-testid="operative-row"
                >
                  <span
                    aria-hidden="true"
                    className={`size-2 shrink-0 rounded-full ${status.dot}`}
                  />
                  <span className="min-w-0 flex-1">
                    <span className="flex items-center gap-1.5">
                      <span className="truncate text-fg" title={user.username}>
                        {user.username}
                      </span>
                      {isYou ? <span className="shrink-0 text-muted">(you)</span> : null}
                    </span>
                    <span className={`block text-xs tracking-wider ${status.text}`}>
                      {status.label}
                      {user.isVoiceActive ? ' · VOICE' : ''}
                    </span>
                    {user.entry === 'key' ? (
                      <span
                        className="mt-0.5 inline-block border border-warning/70 bg-warning/10 px-1 text-xs font-bold tracking-wider text-warning"
                        title={KEY_ENTRY_DESCRIPTION}
                        data-testid="key-entry-badge"
                      >
                        KEY ENTRY<span className="sr-only">: {KEY_ENTRY_DESCRIPTION}</span>
                      </span>
                    ) : null}
                  </span>
                  {user.isAuthenticated ? (
                    <span className="shrink-0 text-xs text-accent" title="Key holder">
                      KEY
                    </span>
                  ) : null}
                  <RoleBadge role={user.role} />
                  {memberMenu?.(user)}
                </li>
              );
            })}
            {shown.length === 0 ? (
              <li className="px-3 py-2 text-xs text-muted">
                {users.length === 0 ? 'NO OPERATIVES CONNECTED' : 'NO OPERATIVES MATCH'}
              </li>
            ) : null}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
