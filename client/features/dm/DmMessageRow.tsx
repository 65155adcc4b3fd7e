/**
 * One direct message (spec 001 §2, §4): the sender's secure id (or username), the sent time as
 * HH:mm:ss, the countdown to its expiry (red under 60 s) and 'Self-destructing'; flagged when
 * 2 s or less remain. The caller hides it once expired.
 */
import {
  formatMessageCountdown,
  formatMessageTime,
  isCountdownCritical,
  isNearExpiry,
} from './dm-time.js';
import { type ReadableDirectMessage } from './dm-crypto.js';

export interface DmMessageRowProps {
  message: ReadableDirectMessage;
  isOwn: boolean;
  msLeft: number;
}

export function DmMessageRow({ message, isOwn, msLeft }: DmMessageRowProps) {
  const isCritical = isCountdownCritical(msLeft);
  const isExpiring = isNearExpiry(msLeft);
  const sender = message.senderSecureId.toUpperCase() || message.senderUsername;
  return (
    <li
      data-testid="dm-message"
      data-message-id={message.id}
      data-expiring={isExpiring ? 'true' : undefined}
      className={`border-l-2 px-3 py-2 transition-opacity duration-500 ${
        isOwn ? 'border-secondary/70 bg-secondary/5' : 'border-primary/50 bg-primary/5'
      } ${isExpiring ? 'animate-pulse opacity-50' : ''}`}
    >
      <div className="flex flex-wrap items-center gap-x-2 gap-y-0.5 text-[11px] tracking-wider">
        <span
          className={`font-bold ${isOwn ? 'text-secondary' : 'text-primary'}`}
          data-testid="dm-message-sender"
          title={message.senderUsername}
        >
          {sender}
        </span>
        {isOwn ? <span className="text-muted">(you)</span> : null}
        <time dateTime={message.sentAt} className="text-muted tabular-nums">
          [{formatMessageTime(message.sentAt)}]
        </time>
        <span className="ml-auto flex items-center gap-2">
          {isExpiring ? (
            <span className="border border-danger px-1 text-[10px] font-bold text-danger">
              EXPIRING
            </span>
          ) : null}
          <span className="text-muted">Self-destructing</span>
          <span
            data-testid="dm-message-countdown"
            className={`tabular-nums ${isCritical ? 'font-bold text-danger' : 'text-warning'}`}
          >
            {formatMessageCountdown(msLeft)}
          </span>
        </span>
      </div>
      <p
        data-testid="dm-message-text"
        className={`mt-1 text-sm break-words whitespace-pre-wrap ${message.isDecrypted ? 'text-fg' : 'text-danger'}`}
      >
        {message.content}
      </p>
    </li>
  );
}
