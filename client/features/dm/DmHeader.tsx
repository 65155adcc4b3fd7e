/**
 * The direct-messages header (spec 001 §2): back to the chat (the default room, or /), the
 * screen's title with the realtime link state, and NEW CONVERSATION once the screen is unlocked.
 */
import { Link } from 'wouter';
import { Bracketed } from '../../ui/TerminalDialog.js';
import { HEADER_BUTTON, PRIMARY_BUTTON } from './dm-styles.js';
import { type DmLinkStatus } from './use-dm-socket.js';

export interface DmHeaderProps {
  backPath: string;
  /** Null on the unlock step, where there is no socket yet. */
  link: DmLinkStatus | null;
  onReconnect?: () => void;
  /** Null on the unlock step. */
  onNewConversation: (() => void) | null;
}

const LINK_TEXT: Record<DmLinkStatus, string> = {
  online: 'SECURE LINK ACTIVE',
  connecting: 'ESTABLISHING LINK...',
  offline: 'LINK OFFLINE',
};

const LINK_CLASS: Record<DmLinkStatus, string> = {
  online: 'text-primary',
  connecting: 'text-warning',
  offline: 'text-danger',
};

export function DmHeader({ backPath, link, onReconnect, onNewConversation }: DmHeaderProps) {
  return (
    <header className="border-b border-border bg-surface">
      <div className="mx-auto flex max-w-4xl flex-wrap items-center gap-x-3 gap-y-2 px-3 py-2.5 sm:px-4">
        <Link href={backPath} className={HEADER_BUTTON} data-testid="dm-back-to-chat">
          <span aria-hidden="true">←</span> CHAT
        </Link>
        <div className="min-w-0 flex-1 basis-52">
          <h1 className="sc-glow truncate text-sm font-bold tracking-[0.25em] text-primary sm:text-base">
            DIRECT MESSAGES
          </h1>
          {link ? (
            <p
              className="flex items-center gap-2 text-xs tracking-wider"
              data-testid="dm-link-status"
              data-state={link}
            >
              <span
                aria-hidden="true"
                className={`size-2 shrink-0 rounded-full bg-current ${LINK_CLASS[link]} ${link === 'connecting' ? 'animate-pulse' : ''}`}
              />
              <span className={LINK_CLASS[link]}>{LINK_TEXT[link]}</span>
              {link === 'offline' && onReconnect ? (
                <button
                  type="button"
                  onClick={onReconnect}
                  className="text-xs tracking-widest text-primary underline hover:text-fg"
                >
                  RECONNECT
                </button>
              ) : null}
            </p>
          ) : (
            <p className="text-xs tracking-wider text-warning">LOCKED</p>
          )}
        </div>
        {onNewConversation ? (
          <button
            type="button"
            onClick={onNewConversation}
            className={`${PRIMARY_BUTTON} w-full sm:w-auto`}
            data-testid="dm-new-conversation"
          >
            <Bracketed>
              <span aria-hidden="true">+ </span>NEW CONVERSATION
            </Bracketed>
          </button>
        ) : null}
      </div>
    </header>
  );
}
