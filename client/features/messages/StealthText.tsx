/**
 * A stealth message (spec 000 §4 "Stealth messages"): a redacted block until clicked. The block
 * has a fixed length, so it does not give away how long the message is.
 */
import { useState } from 'react';

const REDACTED = '█████ ████████ ███';

export function StealthText({ text }: { text: string }) {
  const [isRevealed, setRevealed] = useState(false);
  if (isRevealed) {
    return (
      <span className="whitespace-pre-wrap" data-testid="stealth-revealed">
        {text}
      </span>
    );
  }
  return (
    <button
      type="button"
      onClick={() => setRevealed(true)}
      data-testid="stealth-redacted"
      className="cursor-pointer rounded-sm px-0.5 tracking-tight text-muted hover:text-primary"
    >
      <span aria-hidden="true">{REDACTED}</span>
      <span className="sr-only">Stealth message, hidden. Select to reveal it.</span>
    </button>
  );
}
