/**
 * Messages this tab is holding because they cannot be encrypted yet (issue 14: no silent
 * downgrade). Each waits for the room keys; the user may cancel it, or send that one message in
 * clear after a second, explicit confirmation that names what it means. An image never offers
 * that: its key may only travel encrypted, and neither does a message typed while the connection
 * was down (issue 35): it waits for the reconnection and the keys agreed after it.
 *
 * Below them, messages the relay refused or that the connection lost before the relay confirmed
 * them (issue 35): NOT SENT, with the reason, RESEND (encrypted afresh) and DISCARD.
 */
import { useState } from 'react';

/** One held message, as the chat keeps it. */
export interface PendingSend {
  id: string;
  /** What the user typed (shown only on this screen). */
  text: string;
  hasImage: boolean;
  /** The user confirmed that this message may leave in clear; it is on its way. */
  isConsented: boolean;
  /** Typed while the connection was down: it waits for the reconnection, never leaves in clear. */
  isAwaitingLink?: boolean;
  /** Set when the message was not sent: why (the server's words). RESEND tries again. */
  failure?: string;
}

export interface PendingMessagesProps {
  pending: readonly PendingSend[];
  onSendInClear: (id: string) => void;
  onCancel: (id: string) => void;
  /** Sends a NOT SENT message again. */
  onResend: (id: string) => void;
}

const BUTTON = 'border px-1.5 py-0.5 text-xs font-bold tracking-wider';

/** What the user typed, on this screen only. */
function HeldText({ item }: { item: PendingSend }) {
  return (
    <p className="mt-0.5 text-sm break-words whitespace-pre-wrap text-fg/70">
      {item.hasImage ? '[image]' : item.text}
    </p>
  );
}

function NotSentRow({
  item,
  onResend,
  onDiscard,
}: {
  item: PendingSend;
  onResend: (id: string) => void;
  onDiscard: (id: string) => void;
}) {
  return (
    <li
      data-testid="pending-message"
      data-state="not-sent"
      className="border-l-2 border-danger/70 px-3 py-1"
    >
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs tracking-wider">
        <span className="font-bold text-danger">
          <span aria-hidden="true">▲ </span>NOT SENT
        </span>
        <span className="text-muted" data-testid="pending-failure">
          {item.failure}
        </span>
        <span className="ml-auto flex gap-1.5">
          <button
            type="button"
            data-testid="pending-resend"
            className={`${BUTTON} border-primary/70 text-primary hover:bg-primary/10`}
            onClick={() => onResend(item.id)}
          >
            RESEND
          </button>
          <button
            type="button"
            data-testid="pending-cancel"
            className={`${BUTTON} border-border text-muted hover:text-fg`}
            onClick={() => onDiscard(item.id)}
          >
            DISCARD
          </button>
        </span>
      </div>
      <HeldText item={item} />
    </li>
  );
}

function PendingRow({
  item,
  onSendInClear,
  onCancel,
}: {
  item: PendingSend;
  onSendInClear: (id: string) => void;
  onCancel: (id: string) => void;
}) {
  const [isConfirming, setConfirming] = useState(false);
  const button = BUTTON;
  return (
    <li
      data-testid="pending-message"
      data-state={item.isConsented ? 'sending-in-clear' : 'waiting'}
      className="border-l-2 border-warning/70 px-3 py-1"
    >
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs tracking-wider">
        <span className="font-bold text-warning">
          <span aria-hidden="true" className="inline-block animate-pulse">
            ◌{' '}
          </span>
          PENDING
        </span>
        <span className="text-muted">
          {item.isAwaitingLink
            ? 'waiting for the connection and the room keys · not sent yet'
            : 'waiting for the room keys · not sent yet'}
        </span>
        <span className="ml-auto flex gap-1.5">
          {!item.hasImage && !item.isAwaitingLink && !item.isConsented && !isConfirming ? (
            <button
              type="button"
              data-testid="pending-send-in-clear"
              className={`${button} border-danger/70 text-danger hover:bg-danger/10`}
              onClick={() => setConfirming(true)}
            >
              SEND UNENCRYPTED…
            </button>
          ) : null}
          {!item.isConsented ? (
            <button
              type="button"
              data-testid="pending-cancel"
              className={`${button} border-border text-muted hover:text-fg`}
              onClick={() => onCancel(item.id)}
            >
              CANCEL
            </button>
          ) : null}
        </span>
      </div>
      <HeldText item={item} />
      {isConfirming && !item.isConsented ? (
        <div
          role="alertdialog"
          aria-label="Send this message unencrypted?"
          data-testid="pending-confirm"
          className="mt-1 border border-danger bg-danger/10 px-2 py-1.5 text-xs tracking-wider text-danger"
        >
          <p>
            <strong>SEND IN CLEAR?</strong> This one message leaves as PLAINTEXT: the server and
            anyone who controls it can read it. Other messages keep waiting for encryption.
          </p>
          <div className="mt-1 flex gap-1.5">
            <button
              type="button"
              data-testid="pending-confirm-plaintext"
              className={`${button} border-danger bg-danger/20 text-danger`}
              onClick={() => onSendInClear(item.id)}
            >
              CONFIRM: SEND AS PLAINTEXT
            </button>
            <button
              type="button"
              className={`${button} border-border text-muted hover:text-fg`}
              onClick={() => setConfirming(false)}
            >
              KEEP WAITING
            </button>
          </div>
        </div>
      ) : null}
    </li>
  );
}

export function PendingMessages({
  pending,
  onSendInClear,
  onCancel,
  onResend,
}: PendingMessagesProps) {
  if (pending.length === 0) return null;
  return (
    <ol aria-label="Messages not sent yet" data-testid="pending-messages" className="py-1">
      {pending.map((item) =>
        item.failure === undefined ? (
          <PendingRow key={item.id} item={item} onSendInClear={onSendInClear} onCancel={onCancel} />
        ) : (
          <NotSentRow key={item.id} item={item} onResend={onResend} onDiscard={onCancel} />
        ),
      )}
    </ol>
  );
}
