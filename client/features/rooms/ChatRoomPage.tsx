/**
 * The chat room screen (spec 000 §2 "Chat room screen"): header, control row, channel list
 * (hidden under 768 px), the conversation area and the AUTH_STATUS footer line.
 */
import { useEffect, useState } from 'react';
import { Link, useParams } from 'wouter';
import { TEXT } from '../../../shared/protocol/errors.js';
import { roomLabel } from '../../../shared/protocol/http/rooms.js';
import { ThemeSelector } from '../themes/ThemeSelector.js';
import { useCallsign } from '../identity/use-callsign.js';
import { useAuth } from '../auth/use-auth.js';
import { AuthStatusLine } from './AuthStatusLine.js';
import { ChannelList } from './ChannelList.js';
import { MoreOptionsMenu } from './MoreOptionsMenu.js';
import { useRoomLookup } from './use-room-lookup.js';

export function ChatRoomPage() {
  const { secureId = '' } = useParams<{ secureId: string }>();
  const { data: room } = useRoomLookup(secureId);
  const { callsign, regenerate } = useCallsign();
  const { user, logout } = useAuth();
  const [isChannelListOpen, setChannelListOpen] = useState(true);

  useEffect(() => {
    document.title = room ? `#${room.name} · SecureChannel` : 'SecureChannel';
  }, [room]);

  const controlClass =
    'rounded border border-border px-2 py-1 text-[11px] tracking-widest text-primary hover:bg-primary/10 aria-pressed:bg-primary/20';

  return (
    <div className="flex h-screen flex-col bg-background text-fg">
      <header className="flex items-center gap-3 border-b border-border bg-surface px-3 py-2">
        <div className="min-w-0 flex-1">
          <h1
            className="truncate text-sm font-bold tracking-widest text-primary"
            data-testid="room-name"
          >
            {room ? room.name.toUpperCase() : TEXT.loading}
          </h1>
          {room && (
            <p className="text-[11px] tracking-wider text-muted" data-testid="room-label">
              {roomLabel(room)} CHANNEL
            </p>
          )}
        </div>
        {user && (
          <Link
            href="/direct-messages"
            className="rounded border border-border px-2 py-1 text-[11px] tracking-widest text-primary hover:bg-primary/10"
            data-testid="direct-messages-button"
          >
            DIRECT MESSAGES
          </Link>
        )}
        <ThemeSelector variant="compact" />
        <MoreOptionsMenu
          forgetKey={user ? { username: user.username, onSelect: () => void logout() } : null}
        />
      </header>

      <div
        className="flex items-center gap-2 border-b border-border px-3 py-1.5"
        role="toolbar"
        aria-label="Channel controls"
      >
        <button
          type="button"
          className={controlClass}
          aria-pressed={isChannelListOpen}
          onClick={() => setChannelListOpen((open) => !open)}
          data-testid="toggle-channels"
        >
          CHANNELS
        </button>
      </div>

      <div className="flex min-h-0 flex-1">
        {isChannelListOpen && (
          <aside className="hidden w-64 shrink-0 border-r border-border bg-surface md:block">
            <ChannelList currentSecureId={secureId} />
          </aside>
        )}
        <main
          className="flex min-w-0 flex-1 flex-col"
          aria-label="Conversation"
          data-testid="conversation"
        />
      </div>

      <AuthStatusLine
        username={user?.username ?? callsign}
        securityLevel={user?.permissions.level ?? null}
        onRegenerate={user ? null : regenerate}
      />
    </div>
  );
}
