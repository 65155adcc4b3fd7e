/**
 * The new-conversation dialog (spec 001 §2, §4, §5): 'Recipient Secure ID' (upper-cased as it is
 * typed, checked as described in use-recipient-check.ts), 'Message', 'Auto-delete timer', and
 * SEND MESSAGE, enabled only when the recipient resolved to a registered user, the message is
 * non-empty after trimming and no send is in progress; CANCEL closes.
 */
import { useId, useState, type FormEvent } from 'react';
import { TEXT } from '../../../shared/protocol/errors.js';
import { CancelSubmitRow, TerminalDialog } from '../../ui/TerminalDialog.js';
import { DM_MESSAGE_MAX_CHARS } from './dm-constants.js';
import { FIELD, FIELD_LABEL } from './dm-styles.js';
import { toRecipientInput } from './recipient-match.js';
import { DEFAULT_DM_TIMER, type DmTimerSeconds } from './timer-options.js';
import { TimerSelect } from './TimerSelect.js';
import { useRecipientCheck, type RecipientCheck } from './use-recipient-check.js';

export interface NewConversationDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The recipient to start with (from `dm_target_user`), or ''. */
  initialRecipient: string;
  myKeyId: string;
  isSending: boolean;
  /** Resolves true when the conversation was opened and its first message sent. */
  onSend: (recipientKeyId: string, text: string, timerSeconds: DmTimerSeconds) => Promise<boolean>;
}

export function NewConversationDialog(props: NewConversationDialogProps) {
  return (
    <TerminalDialog
      open={props.open}
      onOpenChange={props.onOpenChange}
      title="NEW CONVERSATION"
      description="Messages are encrypted in this browser before they are sent and destroy themselves when their timer runs out."
      windowLabel="root@securechannel:~/dm/new"
      testId="dm-new-dialog"
    >
      {/* Mounted only while open, so each opening starts from a clean form. */}
      {props.open ? <NewConversationForm {...props} /> : null}
    </TerminalDialog>
  );
}

function NewConversationForm({
  onOpenChange,
  initialRecipient,
  myKeyId,
  isSending,
  onSend,
}: NewConversationDialogProps) {
  const ids = useId();
  const [recipient, setRecipient] = useState(initialRecipient);
  const [text, setText] = useState('');
  const [timer, setTimer] = useState<DmTimerSeconds>(DEFAULT_DM_TIMER);
  const check = useRecipientCheck(recipient, myKeyId);
  const canSend = check.state === 'found' && text.trim() !== '' && !isSending;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (check.state !== 'found' || !canSend) return;
    if (await onSend(check.user.keyId, text.trim(), timer)) onOpenChange(false);
  };

  return (
    <form className="space-y-4" onSubmit={(event) => void onSubmit(event)} noValidate>
      <div>
        <label htmlFor={`${ids}-recipient`} className={FIELD_LABEL}>
          Recipient Secure ID
        </label>
        <div className="relative">
          <input
            id={`${ids}-recipient`}
            value={recipient}
            onChange={(event) => setRecipient(toRecipientInput(event.currentTarget.value))}
            placeholder="SCK_XXXXXXXX"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={80}
            autoFocus
            aria-describedby={`${ids}-check`}
            aria-invalid={check.state === 'not-found' || check.state === 'self'}
            data-testid="dm-recipient-input"
            className={`${FIELD} pr-9 tracking-wider`}
          />
          <CheckIcon check={check} />
        </div>
        <CheckText id={`${ids}-check`} check={check} />
      </div>
      <div>
        <label htmlFor={`${ids}-message`} className={FIELD_LABEL}>
          Message
        </label>
        <textarea
          id={`${ids}-message`}
          value={text}
          rows={4}
          maxLength={DM_MESSAGE_MAX_CHARS}
          placeholder="Type your encrypted message..."
          data-testid="dm-new-message"
          onChange={(event) => setText(event.currentTarget.value)}
          className={`${FIELD} resize-y`}
        />
      </div>
      <div>
        <label htmlFor={`${ids}-timer`} className={FIELD_LABEL}>
          Auto-delete timer
        </label>
        <TimerSelect id={`${ids}-timer`} value={timer} onChange={setTimer} testId="dm-new-timer" />
      </div>
      <CancelSubmitRow
        onCancel={() => onOpenChange(false)}
        cancelLabel="CANCEL"
        submitLabel="SEND MESSAGE"
        busyLabel="SENDING..."
        isBusy={isSending}
        canSubmit={canSend}
        cancelTestId="dm-new-cancel"
        submitTestId="dm-new-send"
        className="pt-1"
      />
    </form>
  );
}

function CheckIcon({ check }: { check: RecipientCheck }) {
  const base = 'pointer-events-none absolute top-1/2 right-3 -translate-y-1/2 text-sm font-bold';
  if (check.state === 'checking') {
    return (
      <span
        aria-hidden="true"
        data-testid="dm-recipient-spinner"
        className={`${base} inline-block size-3.5 animate-spin rounded-full border-2 border-primary/30 border-t-primary`}
      />
    );
  }
  if (check.state === 'found') {
    return (
      <span aria-hidden="true" data-testid="dm-recipient-found" className={`${base} text-primary`}>
        ✓
      </span>
    );
  }
  if (check.state === 'not-found' || check.state === 'self') {
    return (
      <span aria-hidden="true" data-testid="dm-recipient-missing" className={`${base} text-danger`}>
        ✗
      </span>
    );
  }
  return null;
}

function CheckText({ id, check }: { id: string; check: RecipientCheck }) {
  let content = <span className="text-muted">Ask the recipient for their secure ID.</span>;
  if (check.state === 'checking')
    content = <span className="text-muted">Checking secure ID...</span>;
  if (check.state === 'found') {
    content = (
      <span className="text-primary">
        ✓ {TEXT.dmRecipientFound} <span className="text-muted">({check.user.username})</span>
      </span>
    );
  }
  if (check.state === 'not-found')
    content = <span className="text-danger">✗ {TEXT.dmRecipientNotFound}</span>;
  if (check.state === 'self')
    content = <span className="text-danger">✗ {TEXT.dmRecipientIsSelf}</span>;
  return (
    <p
      id={id}
      aria-live="polite"
      className="mt-1 min-h-5 text-xs"
      data-testid="dm-recipient-status"
    >
      {content}
    </p>
  );
}
