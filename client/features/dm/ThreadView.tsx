/**
 * A conversation, full screen (spec 001 §2): back, the other party and their identity state
 * (UNVERIFIED / VERIFIED / KEY CHANGED) with the safety number to compare, 'End-to-End
 * Encrypted', the thread's auto-destruct countdown, the red KILL SWITCH, the unexpired messages
 * each with its check, and the reply form, blocked while the key is changed or the thread refused.
 * The KILL SWITCH asks first, naming who loses the conversation (issue 33): it cannot be undone.
 */
import { useEffect, useRef, useState } from 'react';
import { TEXT } from '../../../shared/protocol/errors.js';
import { type DmThread } from '../../../shared/protocol/http/dm.js';
import { Bracketed } from '../../ui/TerminalDialog.js';
import { type ContactIdentity } from './contact-identity.js';
import { type ThreadReading } from './dm-client.js';
import { DANGER_BUTTON, HEADER_BUTTON } from './dm-styles.js';
import { formatThreadCountdown, remainingMs } from './dm-time.js';
import { DmMessageRow } from './DmMessageRow.js';
import { ReplyComposer, type ReplyComposerProps } from './ReplyComposer.js';
import { KeyChangedWarning, SafetyNumberPanel, TrustBadge } from './SafetyNumberPanel.js';
import { MODE_EXPLANATION, MODE_LABEL } from './thread-mode.js';

export interface ThreadViewProps {
  thread: DmThread;
  myKeyId: string;
  /** Null until the first read completes. */
  reading: ThreadReading | null;
  isLoading: boolean;
  isError: boolean;
  now: number;
  /** A destruct sequence runs: nothing can be sent or destroyed again. */
  isDestructing: boolean;
  onBack: () => void;
  onKill: () => void;
  onSend: ReplyComposerProps['onSend'];
  isSending: boolean;
  onMarkVerified: (contact: ContactIdentity) => void;
  onClearVerified: (keyId: string) => void;
}

export function ThreadView(props: ThreadViewProps) {
  const { thread, reading, now } = props;
  const messages = reading?.messages ?? [];
  const contact = reading?.contact ?? null;
  const isKeyChanged = contact?.trust === 'changed';
  const [isSafetyOpen, setIsSafetyOpen] = useState(false);
  // The confirmation belongs to one thread: opening another never finds it armed.
  const [armedThreadId, setArmedThreadId] = useState<string | null>(null);
  const isKillArmed = armedThreadId === thread.id;
  const setKillArmed = (armed: boolean) => setArmedThreadId(armed ? thread.id : null);
  const cancelKillRef = useRef<HTMLButtonElement>(null);
  const visible = messages
    .map((message) => ({ message, msLeft: remainingMs(message.expiresAt, now) }))
    .filter((entry) => entry.msLeft > 0);
  const name = thread.otherParticipantSecureId.toUpperCase() || thread.otherParticipantUsername;
  const backRef = useRef<HTMLButtonElement>(null);
  const endRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    backRef.current?.focus();
  }, [thread.id]);
  // The safe choice has the focus while the confirmation is shown.
  useEffect(() => {
    if (isKillArmed) cancelKillRef.current?.focus();
  }, [isKillArmed]);
  // Follow the conversation: a new message scrolls into view.
  useEffect(() => {
    endRef.current?.scrollIntoView({ block: 'end' });
  }, [visible.length]);

  return (
    <section
      aria-labelledby="dm-thread-title"
      data-testid="dm-thread-view"
      data-thread-id={thread.id}
      className="fixed inset-0 z-30 flex flex-col bg-background text-fg"
    >
      <header className="border-b border-border bg-surface">
        <div className="mx-auto flex max-w-4xl flex-wrap items-center gap-x-3 gap-y-2 px-3 py-2.5 sm:px-4">
          <button
            ref={backRef}
            type="button"
            onClick={props.onBack}
            className={HEADER_BUTTON}
            data-testid="dm-thread-back"
          >
            <span aria-hidden="true">←</span> BACK
          </button>
          <div className="min-w-0 flex-1">
            <h2
              id="dm-thread-title"
              className="sc-glow truncate text-sm font-bold tracking-wide text-primary sm:text-base sm:tracking-widest"
              data-testid="dm-thread-title"
            >
              {name}
            </h2>
            <p className="truncate text-xs text-muted">{thread.otherParticipantUsername}</p>
          </div>
          <button
            type="button"
            onClick={() => setKillArmed(true)}
            disabled={props.isDestructing || isKillArmed}
            className={DANGER_BUTTON}
            data-testid="dm-kill-switch"
            aria-describedby="dm-kill-hint"
          >
            <Bracketed>
              <span aria-hidden="true" className="hidden sm:inline">
                ☠{' '}
              </span>
              KILL SWITCH
            </Bracketed>
          </button>
          <span id="dm-kill-hint" className="sr-only">
            Destroys this conversation for both participants
          </span>
        </div>
        {isKillArmed && !props.isDestructing ? (
          <div
            role="alertdialog"
            aria-labelledby="dm-kill-confirm-text"
            data-testid="dm-kill-confirm"
            className="mx-auto flex max-w-4xl flex-wrap items-center justify-between gap-2 border-y-2 border-danger bg-danger/15 px-3 py-2 text-xs sm:px-4"
          >
            <p id="dm-kill-confirm-text" className="font-bold tracking-wide text-danger">
              Destroy this conversation for you and {thread.otherParticipantUsername}? Every message
              is deleted on both sides; this cannot be undone.
            </p>
            <span className="flex gap-2">
              <button
                ref={cancelKillRef}
                type="button"
                className={HEADER_BUTTON}
                onClick={() => setKillArmed(false)}
                data-testid="dm-kill-cancel"
              >
                <Bracketed>CANCEL</Bracketed>
              </button>
              <button
                type="button"
                className={DANGER_BUTTON}
                onClick={() => {
                  setKillArmed(false);
                  props.onKill();
                }}
                data-testid="dm-kill-confirm-button"
              >
                <Bracketed>DESTROY FOR BOTH</Bracketed>
              </button>
            </span>
          </div>
        ) : null}
        <div className="mx-auto flex max-w-4xl flex-wrap items-center justify-between gap-x-4 gap-y-1 border-t border-border/60 px-3 py-1.5 text-xs tracking-wider sm:px-4">
          <span
            className="flex items-center gap-1.5 font-bold text-primary"
            data-testid="dm-thread-mode"
            data-mode={thread.mode}
            title={MODE_EXPLANATION}
          >
            <span aria-hidden="true">▣</span>
            {MODE_LABEL}
          </span>
          {contact ? (
            <span className="flex items-center gap-2">
              <TrustBadge trust={contact.trust} />
              {isKeyChanged ? null : (
                <button
                  type="button"
                  className="text-xs font-bold tracking-widest text-primary underline hover:text-fg"
                  aria-expanded={isSafetyOpen}
                  onClick={() => setIsSafetyOpen((open) => !open)}
                  data-testid="dm-safety-toggle"
                >
                  {isSafetyOpen ? 'HIDE SAFETY NUMBER' : 'SAFETY NUMBER'}
                </button>
              )}
            </span>
          ) : null}
          <span className="text-muted">
            AUTO-DESTRUCT{' '}
            <span className="font-bold text-warning tabular-nums" data-testid="dm-thread-countdown">
              {formatThreadCountdown(remainingMs(thread.expiresAt, now))}
            </span>
          </span>
        </div>
        {contact && isKeyChanged ? <KeyChangedWarning contact={contact} name={name} /> : null}
        {reading?.threadError && !isKeyChanged ? (
          <p
            role="alert"
            data-testid="dm-thread-error"
            className="mx-auto max-w-4xl border-y-2 border-danger bg-danger/15 px-3 py-2 text-xs font-bold tracking-wider text-danger sm:px-4"
          >
            ⚠ {reading.threadError}
          </p>
        ) : null}
        {contact && isSafetyOpen && !isKeyChanged ? (
          <SafetyNumberPanel
            contact={contact}
            name={name}
            onMarkVerified={props.onMarkVerified}
            onClearVerified={props.onClearVerified}
          />
        ) : null}
      </header>

      <div className="min-h-0 flex-1 overflow-y-auto">
        <div className="mx-auto max-w-4xl px-3 py-3 sm:px-4">
          {props.isLoading ? (
            <p className="py-10 text-center text-xs tracking-widest text-muted">DECRYPTING...</p>
          ) : props.isError ? (
            <p className="py-10 text-center text-sm text-danger">{TEXT.dmFetchMessagesFailed}</p>
          ) : visible.length === 0 ? (
            <p className="py-10 text-center text-sm text-muted" data-testid="dm-no-messages">
              {TEXT.dmNoMessages}
            </p>
          ) : (
            <ol className="space-y-2" aria-label="Messages" aria-live="polite">
              {visible.map(({ message, msLeft }, index) => (
                <DmMessageRow
                  key={`${message.id}:${index}`}
                  message={message}
                  isOwn={message.senderKeyId === props.myKeyId}
                  msLeft={msLeft}
                />
              ))}
            </ol>
          )}
          <div ref={endRef} />
        </div>
      </div>

      <ReplyComposer
        isSending={props.isSending}
        isDisabled={
          props.isDestructing || reading === null || isKeyChanged || reading.threadError !== null
        }
        onSend={props.onSend}
      />
    </section>
  );
}
