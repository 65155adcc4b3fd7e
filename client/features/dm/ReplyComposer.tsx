/**
 * The reply form of a thread (spec 001 §2, §5): auto-delete timer, text (Enter sends,
 * Shift+Enter starts a new line) and SEND. A reply must be non-empty after trimming and is not
 * sent while another is on its way; a failed send keeps the text.
 */
import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Bracketed } from '../../ui/TerminalDialog.js';
import { DM_MESSAGE_MAX_CHARS } from './dm-constants.js';
import { FIELD, PRIMARY_BUTTON } from './dm-styles.js';
import { DEFAULT_DM_TIMER, type DmTimerSeconds } from './timer-options.js';
import { TimerSelect } from './TimerSelect.js';

export interface ReplyComposerProps {
  isSending: boolean;
  isDisabled: boolean;
  onSend: (text: string, timerSeconds: DmTimerSeconds) => Promise<boolean>;
}

export function ReplyComposer({ isSending, isDisabled, onSend }: ReplyComposerProps) {
  const ids = useId();
  const [text, setText] = useState('');
  const [timer, setTimer] = useState<DmTimerSeconds>(DEFAULT_DM_TIMER);
  const canSend = text.trim() !== '' && !isSending && !isDisabled;

  const submit = async () => {
    if (!canSend) return;
    if (await onSend(text.trim(), timer)) setText('');
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  };

  return (
    <form onSubmit={onSubmit} className="border-t border-border bg-surface py-3">
      <div className="mx-auto flex max-w-4xl flex-col gap-2 px-3 sm:px-4">
        <div className="flex flex-wrap items-center gap-2">
          <label
            htmlFor={`${ids}-timer`}
            className="text-xs font-bold tracking-[0.2em] text-primary uppercase"
          >
            Auto-delete timer
          </label>
          <TimerSelect
            id={`${ids}-timer`}
            value={timer}
            onChange={setTimer}
            disabled={isDisabled}
            className="w-auto min-w-0 flex-1 py-1 text-xs sm:max-w-56 sm:flex-none"
            testId="dm-reply-timer"
          />
        </div>
        <div className="flex items-stretch gap-2">
          <label htmlFor={`${ids}-text`} className="sr-only">
            Reply
          </label>
          <textarea
            id={`${ids}-text`}
            value={text}
            rows={2}
            maxLength={DM_MESSAGE_MAX_CHARS}
            disabled={isDisabled}
            placeholder="Type an encrypted reply..."
            aria-describedby={`${ids}-hint`}
            data-testid="dm-reply-input"
            onChange={(event) => setText(event.currentTarget.value)}
            onKeyDown={onKeyDown}
            className={`${FIELD} min-h-12 flex-1 resize-none`}
          />
          <button
            type="submit"
            disabled={!canSend}
            className={`${PRIMARY_BUTTON} self-stretch`}
            data-testid="dm-reply-send"
          >
            <Bracketed>{isSending ? 'SENDING' : 'SEND'}</Bracketed>
          </button>
        </div>
        <p id={`${ids}-hint`} className="text-xs tracking-wider text-muted">
          Enter sends · Shift+Enter adds a new line
        </p>
      </div>
    </form>
  );
}
