/**
 * The bot-check dialog (spec 000 §2 "Challenge dialog", §5; spec 001 §2 "Bot-check dialog"):
 * 'Security Verification', the proof-of-work puzzle the browser is solving (in place of the
 * spec's math question, docs/decisions.md) with its progress, close, and an error area that shows
 * the server's message. Presentational: the work, what the frames mean, and the 'Verification
 * Successful' toast belong to the caller (use-bot-challenge.ts).
 *
 * With no challenge but an error (the server ended the connection as a bot), the dialog shows
 * that message and a disconnect notice, and only closes.
 */
import { useId } from 'react';
import { TEXT } from '../../../shared/protocol/errors.js';
import { Bracketed, DIALOG_BUTTON_SECONDARY, TerminalDialog } from '../../ui/TerminalDialog.js';
import { type BotChallenge } from './bot-challenge-state.js';
import { type BotChallengeProgress } from './use-bot-challenge.js';

export interface BotChallengeDialogProps {
  challenge: BotChallenge | null;
  error: string | null;
  progress: BotChallengeProgress | null;
  onClose: () => void;
}

export function BotChallengeDialog({
  challenge,
  error,
  progress,
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
        <ChallengeWork challenge={challenge} error={error} progress={progress} onClose={onClose} />
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

function ChallengeWork({
  challenge,
  error,
  progress,
  onClose,
}: {
  challenge: BotChallenge;
  error: string | null;
  progress: BotChallengeProgress | null;
  onClose: () => void;
}) {
  const ids = useId();
  const percent = Math.floor((progress?.share ?? 0) * 100);
  const status = progress?.isSubmitted
    ? 'SOLVED - VERIFYING WITH RELAY...'
    : `COMPUTING PROOF OF WORK... ${percent}%`;
  return (
    <div className="space-y-4">
      <div className="border border-warning/50 bg-background p-4">
        <p className="text-[0.75rem] tracking-[0.3em] text-muted uppercase">Proof of work</p>
        <p
          className="mt-2 font-mono text-xs break-all text-warning"
          data-testid="bot-challenge-question"
          title="SHA-256 target"
        >
          {challenge.challenge}
        </p>
        <p className="mt-2 text-[0.75rem] text-muted">
          Search space: {challenge.maxnumber.toLocaleString('en-US')} candidates
        </p>
      </div>
      <div>
        <p
          id={`${ids}-status`}
          className="mb-1 text-[0.75rem] font-bold tracking-[0.2em] text-primary uppercase"
          aria-live="polite"
          data-testid="bot-challenge-status"
        >
          {status}
        </p>
        <div
          role="progressbar"
          aria-labelledby={`${ids}-status`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={progress?.isSubmitted ? 100 : percent}
          className="h-2 w-full border border-border bg-background"
          data-testid="bot-challenge-progress"
        >
          <div
            className="h-full bg-primary transition-[width]"
            style={{ width: `${progress?.isSubmitted ? 100 : percent}%` }}
          />
        </div>
        <p className="mt-2 text-xs leading-relaxed text-muted">
          Your browser proves it is not a script by doing a little work; nothing leaves this device
          but the answer. Closing this window lets the work go on in the background.
        </p>
      </div>
      <p
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
      </div>
    </div>
  );
}
