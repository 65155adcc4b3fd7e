/**
 * One direct message (spec 001 §2, §4): the sender's secure id (or username), the sender's signed
 * time as HH:mm:ss, the countdown to its expiry (red under 60 s) and 'Self-destructing'; flagged
 * when 2 s or less remain. A message that is not exactly what its sender signed, in its place, is
 * flagged loudly (REPLAYED, OUT OF ORDER, SIGNATURE INVALID …), and counters skipped before it
 * are shown as missing. The caller hides it once expired.
 */
import {
  formatMessageCountdown,
  formatMessageTime,
  isCountdownCritical,
  isNearExpiry,
} from './dm-time.js';
import { type MessageStatus, type ReadableDirectMessage } from './dm-client.js';

/** The flag of each status that is not plain 'ok'. */
const STATUS_FLAG: Record<Exclude<MessageStatus, 'ok'>, { text: string; title: string }> = {
  replayed: {
    text: 'REPLAYED',
    title: 'The server delivered this signed message again: it was sent once.',
  },
  'counter-reused': {
    text: 'COUNTER REUSED',
    title: 'Another message already used this place in the sender’s sequence.',
  },
  'out-of-order': {
    text: 'OUT OF ORDER',
    title: 'The server delivered this message after a later one from the same sender.',
  },
  'signature-invalid': {
    text: 'SIGNATURE INVALID',
    title: 'Not signed by the sender it claims: forged, re-attributed or stripped.',
  },
  undecryptable: { text: 'UNREADABLE', title: 'It does not decrypt with this thread’s key.' },
  'sender-key-changed': {
    text: 'KEY CHANGED',
    title: 'The sender’s identity key is not the pinned one: it cannot be verified.',
  },
  'no-thread-key': { text: 'NO KEY', title: 'The thread key was refused or could not be opened.' },
};

export interface DmMessageRowProps {
  message: ReadableDirectMessage;
  isOwn: boolean;
  msLeft: number;
}

export function DmMessageRow({ message, isOwn, msLeft }: DmMessageRowProps) {
  const isCritical = isCountdownCritical(msLeft);
  const isExpiring = isNearExpiry(msLeft);
  const sender = message.senderSecureId.toUpperCase() || message.senderUsername;
  const flag = message.status === 'ok' ? null : STATUS_FLAG[message.status];
  const isTrusted = message.status === 'ok';
  return (
    <>
      {message.missingBefore > 0 ? (
        <li
          data-testid="dm-missing"
          className="border border-dashed border-warning/70 px-3 py-1 text-center text-xs font-bold tracking-widest text-warning"
        >
          MISSING: {message.missingBefore} earlier message{message.missingBefore === 1 ? '' : 's'}{' '}
          from {sender} not delivered (expired, or withheld by the server)
        </li>
      ) : null}
      <li
        data-testid="dm-message"
        data-message-id={message.id}
        data-status={message.status}
        data-counter={message.counter}
        data-expiring={isExpiring ? 'true' : undefined}
        className={`border-l-2 px-3 py-2 transition-opacity duration-500 ${
          !isTrusted
            ? 'border-danger bg-danger/10'
            : isOwn
              ? 'border-secondary/70 bg-secondary/5'
              : 'border-primary/50 bg-primary/5'
        } ${isExpiring ? 'animate-pulse opacity-50' : ''}`}
      >
        <div className="flex flex-wrap items-center gap-x-2 gap-y-0.5 text-xs tracking-wider">
          <span
            className={`font-bold ${isOwn ? 'text-secondary' : 'text-primary'}`}
            data-testid="dm-message-sender"
            title={message.senderUsername}
          >
            {sender}
          </span>
          {isOwn ? <span className="text-muted">(you)</span> : null}
          <time dateTime={message.timestamp} className="text-muted tabular-nums">
            [{formatMessageTime(message.timestamp)}]
          </time>
          {flag ? (
            <span
              data-testid="dm-message-flag"
              title={flag.title}
              className="border border-danger bg-danger px-1 text-xs font-bold tracking-widest text-background"
            >
              ⚠ {flag.text}
            </span>
          ) : null}
          <span className="ml-auto flex items-center gap-2">
            {isExpiring ? (
              <span className="border border-danger px-1 text-xs font-bold text-danger">
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
    </>
  );
}
