/**
 * Messages this tab is holding because they cannot be encrypted yet (issue 14: no silent
 * downgrade). Each waits for the room keys; the user may cancel it, or send that one message in
 * clear after a second, explicit confirmation that names what it means. An image never offers
 * that: its key may only travel encrypted.
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
}

export interface PendingMessagesProps {
  pending: readonly PendingSend[];
  onSendInClear: (id: string) => void;
  onCancel: (id: string) => void;
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
  const button = 'border px-1.5 py-0.5 text-xs font-bold tracking-wider';
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
        <span className="text-muted">waiting for the room keys · not sent yet</span>
        <span className="ml-auto flex gap-1.5">
          {!item.hasImage && !item.isConsented && !isConfirming ? (
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
      <p className="mt-0.5 text-sm break-words whitespace-pre-wrap text-fg/70">
        {item.hasImage ? '[image]' : item.text}
      </p>
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

export function PendingMessages({ pending, onSendInClear, onCancel }: PendingMessagesProps) {
  if (pending.length === 0) return null;
  return (
    <ol
      aria-label="Messages waiting for encryption"
      data-testid="pending-messages"
      className="py-1"
    >
      {pending.map((item) => (
        <PendingRow key={item.id} item={item} onSendInClear={onSendInClear} onCancel={onCancel} />
      ))}
    </ol>
  );
}
