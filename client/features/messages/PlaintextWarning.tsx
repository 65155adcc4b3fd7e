/**
 * The strip above the input when messages cannot leave end-to-end encrypted right now (DESIGN.md
 * principle 1: the UI must flag it; issue 14: nothing downgrades on its own):
 * - `waiting`: the room's keys are being agreed; a message sent now is held (shown as pending)
 *   until they are ready;
 * - `unavailable`: this browser cannot make keys (plain HTTP away from localhost, or key
 *   generation failed): messages are held, and each leaves in clear only if the user confirms it.
 * It goes away once messages are encrypted.
 */
import { TEXT } from '../../../shared/protocol/errors.js';

export function PlaintextWarning({
  variant = 'unavailable',
}: {
  variant?: 'unavailable' | 'waiting';
}) {
  if (variant === 'waiting') {
    return (
      <p
        role="status"
        data-testid="key-agreement-notice"
        className="border-t border-warning/60 bg-warning/10 px-3 py-1 text-xs tracking-wider text-warning"
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
      role="alert"
      data-testid="plaintext-warning"
      className="border-t-2 border-danger bg-danger/15 px-3 py-1.5 text-xs tracking-wider text-danger"
    >
      <span aria-hidden="true">⚠ </span>
      <strong>ENCRYPTION UNAVAILABLE:</strong> this browser cannot make the room keys
      <span className="hidden sm:inline">
        {' '}
        (the page needs HTTPS, an onion address or localhost)
      </span>
      . Messages are held; each leaves in clear only if you confirm it.
    </p>
  );
}
