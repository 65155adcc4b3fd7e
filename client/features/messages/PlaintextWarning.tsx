/**
 * The strip above the input when messages do not (yet) leave end-to-end encrypted (DESIGN.md
 * principle 1: the UI must flag it):
 * - `waiting`: the room's keys are being agreed; a message sent now waits for them (spec 000 §8's
 *   PLAINTEXT fallback only follows if they never come);
 * - `plaintext`: encryption is not available, messages travel as the spec's PLAINTEXT fallback.
 * It goes away once messages are encrypted.
 */
import { TEXT } from '../../../shared/protocol/errors.js';

export function PlaintextWarning({ variant = 'plaintext' }: { variant?: 'plaintext' | 'waiting' }) {
  if (variant === 'waiting') {
    return (
      <p
        role="status"
        data-testid="key-agreement-notice"
        className="border-t border-warning/60 bg-warning/10 px-3 py-1 text-[11px] tracking-wider text-warning"
      >
        <span aria-hidden="true" className="inline-block animate-pulse">
          ◌{' '}
        </span>
        <strong>{TEXT.waitingForKeyAgreement.toUpperCase()}...</strong>
        <span className="hidden sm:inline"> Messages are held until the room keys are ready</span>
      </p>
    );
  }
  return (
    <p
      role="note"
      data-testid="plaintext-warning"
      className="border-t border-danger/60 bg-danger/10 px-3 py-1 text-[11px] tracking-wider text-danger"
    >
      <span aria-hidden="true">⚠ </span>
      <strong>PLAINTEXT MODE:</strong> end-to-end encryption is not available
      <span className="hidden sm:inline">
        . The server can read messages until they self-destruct
      </span>
      .
    </p>
  );
}
