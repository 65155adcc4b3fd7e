/**
 * The chat room header (spec 000 §2): room name in upper case (LOADING... before it is known), the
 * connection status line with the session timer, the member count (which toggles the operatives
 * list), direct messages for key holders, the security indicator, the theme switch, the
 * collapse/expand toggle and More Options. Collapsed, it keeps one slim line.
 */
import { Suspense } from 'react';
import { Link } from 'wouter';
import { lazyComponent } from '../../lib/lazy-component.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import type { Room } from '../../../shared/protocol/http/rooms.js';
import { roomLabel } from '../../../shared/protocol/room-label.js';
import { type ChatConnectionStatus } from '../../lib/realtime/chat-socket.js';
import { ThemeSelector, THEMES, nextThemeId, useTheme } from '../themes/index.js';
import type { MoreOptionsMenuProps } from './MoreOptionsMenu.js';
import { SecurityIndicator, type SecurityIndicatorProps } from './SecurityIndicator.js';
import { formatSessionTime } from './session-time.js';
import { useSessionTimer } from './use-session-timer.js';

export interface ChatHeaderProps {
  room: Room | null;
  status: ChatConnectionStatus;
  memberCount: number;
  isCollapsed: boolean;
  onToggleCollapsed: () => void;
  isOperativesOpen: boolean;
  onToggleOperatives: () => void;
  /** Key holders get the direct-messages button. */
  isKeyHolder: boolean;
  isEndToEnd: boolean;
  /** Key agreement, level label and alerts for the security indicator. */
  security?: Pick<SecurityIndicatorProps, 'isWaiting' | 'level' | 'alert' | 'link'>;
  /** The status line's words while the connection is not up ("RECONNECTING IN 4 s…"). */
  linkText?: string;
  onNetworkMonitor: () => void;
  onSecurityProtocols: () => void;
  /** Key holders' Forget Key; null shows Back to Landing. */
  forgetKey: MoreOptionsMenuProps['forgetKey'];
  /** Opens the chat-room admin overlay (Tor and bridges, spec 001 §2). */
  onTorAdmin?: () => void;
  /** The voice call button: joins or leaves the room's call; disabled until the room is joined. */
  voice: { isInCall: boolean; isAvailable: boolean; callSize: number; onToggle: () => void };
}

// The menu (Radix dropdown) loads right after the room paints; its button is there meanwhile.
const MoreOptionsMenu = lazyComponent(() => import('./MoreOptionsMenu.js'), 'MoreOptionsMenu');

const MENU_PLACEHOLDER = (
  <button
    type="button"
    disabled
    aria-label="More options"
    className="rounded border border-border px-2 py-1 text-primary"
  >
    ⋮
  </button>
);

const STATUS_TEXT: Record<ChatConnectionStatus, (count: number) => string> = {
  connected: (count) => `${count} ${count === 1 ? 'node' : 'nodes'} active`,
  connecting: () => 'ESTABLISHING_LINK...',
  disconnected: () => 'CONNECTION_LOST',
};

const STATUS_CLASS: Record<ChatConnectionStatus, string> = {
  connected: 'text-primary',
  connecting: 'text-warning',
  disconnected: 'text-danger',
};

const HEADER_BUTTON =
  'inline-flex min-h-8 items-center gap-1 border border-border px-2 py-1 text-xs tracking-widest text-primary hover:bg-primary/10 aria-pressed:bg-primary/20';

/** More Options (spec 000 §2), plus the theme switch that narrow screens have no room for. */
function useMenuItems(props: ChatHeaderProps): NonNullable<MoreOptionsMenuProps['items']> {
  const { themeId, cycleTheme } = useTheme();
  return [
    { label: 'Network Monitor', onSelect: props.onNetworkMonitor, testId: 'menu-network-monitor' },
    {
      label: 'Security Protocols',
      onSelect: props.onSecurityProtocols,
      testId: 'menu-security-protocols',
    },
    {
      label: props.isCollapsed ? 'Expand Header' : 'Collapse Header',
      onSelect: props.onToggleCollapsed,
      testId: 'menu-toggle-header',
    },
    {
      label: `Next Theme: ${THEMES[nextThemeId(themeId)].name}`,
      onSelect: cycleTheme,
      testId: 'menu-next-theme',
    },
    ...(props.onTorAdmin
      ? [{ label: 'Tor Admin', onSelect: props.onTorAdmin, testId: 'menu-tor-admin' }]
      : []),
  ];
}

/** The session timer ticks on its own, so the header does not render again every second. */
function SessionTimer({ isConnected }: { isConnected: boolean }) {
  const seconds = useSessionTimer(isConnected);
  return (
    <span data-testid="session-timer" className="tabular-nums">
      {formatSessionTime(seconds)}
    </span>
  );
}

export function ChatHeader(props: ChatHeaderProps) {
  const { room, status, memberCount, isCollapsed } = props;
  const menu = (
    <Suspense fallback={MENU_PLACEHOLDER}>
      <MoreOptionsMenu items={useMenuItems(props)} forgetKey={props.forgetKey} />
    </Suspense>
  );
  const name = room ? room.name.toUpperCase() : TEXT.loading;
  const statusLine = (
    <p className="flex min-w-0 items-center gap-2 text-xs tracking-wider whitespace-nowrap">
      <span
        aria-hidden="true"
        className={`size-2 shrink-0 rounded-full bg-current ${STATUS_CLASS[status]} ${status === 'connecting' ? 'animate-pulse' : ''}`}
      />
      <span data-testid="connection-status" className={`truncate ${STATUS_CLASS[status]}`}>
        {status !== 'connected' && props.linkText
          ? props.linkText
          : STATUS_TEXT[status](memberCount)}
      </span>
      {/* Collapsed on a narrow screen there is no room for the timer. */}
      <span className={`text-muted ${isCollapsed ? 'hidden sm:inline' : ''}`}>
        <span aria-hidden="true">· </span>SESSION{' '}
        <SessionTimer isConnected={status === 'connected'} />
      </span>
    </p>
  );
  const collapseButton = (
    <button
      type="button"
      onClick={props.onToggleCollapsed}
      aria-expanded={!isCollapsed}
      aria-label={isCollapsed ? 'Expand header' : 'Collapse header'}
      data-testid="toggle-header"
      className={HEADER_BUTTON}
    >
      <span aria-hidden="true">{isCollapsed ? '▼' : '▲'}</span>
    </button>
  );

  if (isCollapsed) {
    return (
      <header className="flex items-center gap-3 border-b border-border bg-surface px-3 py-1">
        <h1
          className="truncate text-xs font-bold tracking-widest text-primary"
          data-testid="room-name"
        >
          {name}
        </h1>
        <div className="min-w-0 flex-1">{statusLine}</div>
        <SecurityIndicator
          isEndToEnd={props.isEndToEnd}
          isSecureTransport={window.location.protocol === 'https:'}
          variant="compact"
          {...props.security}
        />
        {collapseButton}
        {menu}
      </header>
    );
  }

  return (
    <header className="flex flex-wrap items-center gap-x-3 gap-y-2 border-b border-border bg-surface px-3 py-2">
      <div className="min-w-0 flex-1 basis-48">
        <div className="flex min-w-0 items-baseline gap-2">
          <h1
            className="sc-glow truncate text-sm font-bold tracking-widest text-primary sm:text-base"
            data-testid="room-name"
          >
            {name}
          </h1>
          {room ? (
            <span
              className="shrink-0 border border-border px-1 text-xs tracking-wider text-muted"
              title="Channel clearance"
            >
              <span className="sr-only">Channel clearance: </span>
              <span data-testid="room-label">{roomLabel(room)}</span>
            </span>
          ) : null}
        </div>
        {statusLine}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {/* Narrow screens get the compact indicator; the status bar below has the details. */}
        <div className="sm:hidden">
          <SecurityIndicator
            isEndToEnd={props.isEndToEnd}
            isSecureTransport={window.location.protocol === 'https:'}
            variant="compact"
            {...props.security}
          />
        </div>
        <div className="hidden sm:block">
          <SecurityIndicator
            isEndToEnd={props.isEndToEnd}
            isSecureTransport={window.location.protocol === 'https:'}
            variant="full"
            {...props.security}
          />
        </div>
        <button
          type="button"
          onClick={props.onToggleOperatives}
          aria-pressed={props.isOperativesOpen}
          aria-label={`Operatives: ${memberCount} online. Show or hide the list`}
          data-testid="operatives-toggle"
          className={HEADER_BUTTON}
        >
          <span aria-hidden="true">◉</span>
          <span data-testid="member-count" aria-hidden="true">
            {memberCount}
          </span>
        </button>
        <button
          type="button"
          onClick={props.voice.onToggle}
          disabled={!props.voice.isAvailable && !props.voice.isInCall}
          aria-pressed={props.voice.isInCall}
          title={
            props.voice.isInCall
              ? 'Leave the voice call'
              : props.voice.callSize > 0
                ? `Join the voice call (${props.voice.callSize} in it)`
                : 'Start a voice call'
          }
          data-testid="voice-call-button"
          className={`${HEADER_BUTTON} disabled:cursor-not-allowed disabled:opacity-50`}
        >
          <span aria-hidden="true">{props.voice.isInCall ? '◉' : '◎'}</span>
          <span>
            {props.voice.isInCall
              ? 'IN CALL'
              : props.voice.callSize > 0
                ? `JOIN CALL · ${props.voice.callSize}`
                : 'VOICE'}
          </span>
        </button>
        {props.isKeyHolder ? (
          <Link
            href="/direct-messages"
            className={HEADER_BUTTON}
            data-testid="direct-messages-button"
          >
            DIRECT MESSAGES
          </Link>
        ) : null}
        <div className="hidden sm:block">
          <ThemeSelector variant="compact" />
        </div>
        {collapseButton}
        {menu}
      </div>
    </header>
  );
}
