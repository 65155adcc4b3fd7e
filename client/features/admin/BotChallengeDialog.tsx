/**
 * The bot-check dialog (spec 000 §2 "Challenge dialog", §5; spec 001 §2 "Bot-check dialog"):
 * 'Security Verification', the server's math question, a required answer, submit, close and an
 * error area that shows the server's message. Presentational: what the frames mean, and the
 * 'Verification Successful' toast, belong to the caller (use-bot-challenge.ts).
 *
 * With no challenge but an error (the server ended the connection as a bot), the dialog shows
 * that message and a disconnect notice, and only closes.
 */
import { useId, useState, type FormEvent } from 'react';
import { TEXT } from '../../../shared/protocol/errors.js';
import {
  Bracketed,
  DIALOG_BUTTON,
  DIALOG_BUTTON_SECONDARY,
  TerminalDialog,
} from '../rooms/TerminalDialog.js';
import { type BotChallenge } from './bot-challenge-state.js';

export interface BotChallengeDialogProps {
  challenge: BotChallenge | null;
  error: string | null;
  onSubmit: (answer: string) => void;
  onClose: () => void;
}

/** Longest answer the server accepts (BotChallengeResponseFrameSchema). */
const ANSWER_MAX_LENGTH = 50;

export function BotChallengeDialog({
  challenge,
  error,
  onSubmit,
  onClose,
}: BotChallengeDialogProps) {
  const isOpen = challenge !== null || error !== null;
  return (
    <TerminalDialog
      open={isOpen}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={TEXT.securityVerification}
      description={
        challenge
          ? challenge.message
          : 'This connection was closed by the relay after failed verification.'
      }
      windowLabel="root@securechannel:~/verify"
      tone={challenge ? 'warning' : 'danger'}
      status={
        <span className={challenge ? 'text-warning' : 'text-danger'}>
          {challenge ? 'CHALLENGE' : 'TERMINATED'}
        </span>
      }
      testId="bot-challenge-dialog"
    >
      {challenge ? (
        // Keyed by challenge: a new question starts with an empty answer.
        <ChallengeForm
          key={challenge.challengeId}
          challenge={challenge}
          error={error}
          onSubmit={onSubmit}
          onClose={onClose}
        />
      ) : (
        <div className="space-y-4">
          <p
            role="alert"
            className="border border-danger/70 bg-danger/10 p-3 text-sm text-danger"
            data-testid="bot-challenge-error"
          >
            {error}
          </p>
          <p className="text-xs leading-relaxed text-muted">
            Messages are no longer relayed from this browser. Wait a few minutes before you
            reconnect.
          </p>
          <div className="flex justify-end">
            <button type="button" className={DIALOG_BUTTON_SECONDARY} onClick={onClose}>
              <Bracketed>CLOSE</Bracketed>
            </button>
          </div>
        </div>
      )}
    </TerminalDialog>
  );
}

function ChallengeForm({
  challenge,
  error,
  onSubmit,
  onClose,
}: {
  challenge: BotChallenge;
  error: string | null;
  onSubmit: (answer: string) => void;
  onClose: () => void;
}) {
  const ids = useId();
  const [answer, setAnswer] = useState('');
  const isEmpty = answer.trim() === '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (isEmpty) return;
    onSubmit(answer);
    // Each try starts empty; a wrong answer's message appears in the error area.
    setAnswer('');
  };

  return (
    <form className="space-y-4" onSubmit={submit} noValidate>
      <div className="border border-warning/50 bg-background p-4 text-center">
        <p className="text-[0.65rem] tracking-[0.3em] text-muted uppercase">Math challenge</p>
        <p
          className="sc-glow mt-2 text-lg font-bold text-warning sm:text-xl"
          data-testid="bot-challenge-question"
        >
          {challenge.challenge}
        </p>
      </div>
      <div>
        <label
          htmlFor={`${ids}-answer`}
          className="mb-1 block text-[0.7rem] font-bold tracking-[0.2em] text-primary uppercase"
        >
          Answer <span aria-hidden="true">*</span>
        </label>
        <input
          id={`${ids}-answer`}
          className="w-full border border-border bg-background px-3 py-2 text-sm text-fg placeholder:text-muted/70 focus:border-primary focus:outline-none"
          value={answer}
          required
          autoFocus
          inputMode="numeric"
          autoComplete="off"
          spellCheck={false}
          maxLength={ANSWER_MAX_LENGTH}
          placeholder="Type the result"
          aria-invalid={error !== null}
          aria-describedby={`${ids}-error`}
          data-testid="bot-challenge-answer"
          onChange={(event) => setAnswer(event.currentTarget.value)}
        />
      </div>
      <p
        id={`${ids}-error`}
        role="alert"
        className={`min-h-5 text-xs ${error ? 'font-bold text-danger' : 'text-muted'}`}
        data-testid="bot-challenge-error"
      >
        {error ?? ''}
      </p>
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" className={DIALOG_BUTTON_SECONDARY} onClick={onClose}>
          <Bracketed>CLOSE</Bracketed>
        </button>
        <button
          type="submit"
          className={DIALOG_BUTTON}
          disabled={isEmpty}
          data-testid="bot-challenge-submit"
        >
          <Bracketed>VERIFY</Bracketed>
        </button>
      </div>
    </form>
  );
}
