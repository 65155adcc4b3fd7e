/**
 * The safety number of a conversation (docs/crypto.md, "Direct messages: safety number"): twelve
 * groups of five digits, the same on both sides, which the two people compare over another
 * channel (in person, a call). Once they match the user marks the contact verified; the mark
 * names the key compared and lapses if it ever changes.
 */
import { useId } from 'react';
import { safetyNumberGroups } from '../../../shared/crypto/dm/safety-number.js';
import { type ContactIdentity } from './contact-identity.js';
import { HEADER_BUTTON, PRIMARY_BUTTON } from './dm-styles.js';

export interface SafetyNumberPanelProps {
  contact: ContactIdentity;
  name: string;
  onMarkVerified: (contact: ContactIdentity) => void;
  onClearVerified: (keyId: string) => void;
}

export function SafetyNumberPanel({
  contact,
  name,
  onMarkVerified,
  onClearVerified,
}: SafetyNumberPanelProps) {
  const ids = useId();
  const isVerified = contact.trust === 'verified';
  return (
    <section
      aria-labelledby={`${ids}-title`}
      data-testid="dm-safety-panel"
      className="mx-auto max-w-4xl border-t border-border/60 px-3 py-3 sm:px-4"
    >
      <h3 id={`${ids}-title`} className="text-xs font-bold tracking-[0.25em] text-primary">
        SAFETY NUMBER
      </h3>
      <p className="mt-1 text-xs leading-relaxed text-muted">
        Compare these digits with {name} in person or on a call. If every group matches, nobody —
        the server included — stands between your keys.
      </p>
      <ol
        className="mt-2 grid max-w-md grid-cols-4 gap-x-4 gap-y-1 font-mono text-sm tracking-widest text-fg tabular-nums sm:text-base"
        aria-label="Safety number, twelve groups of five digits"
        data-testid="dm-safety-number"
        data-safety-number={contact.safetyNumber}
      >
        {safetyNumberGroups(contact.safetyNumber).map((group, index) => (
          <li key={index}>{group}</li>
        ))}
      </ol>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        {isVerified ? (
          <>
            <span className="text-xs font-bold tracking-widest text-primary">
              ✓ VERIFIED — you compared this number
            </span>
            <button
              type="button"
              className={HEADER_BUTTON}
              onClick={() => onClearVerified(contact.keyId)}
              data-testid="dm-clear-verified"
            >
              CLEAR VERIFICATION
            </button>
          </>
        ) : (
          <button
            type="button"
            className={PRIMARY_BUTTON}
            onClick={() => onMarkVerified(contact)}
            data-testid="dm-mark-verified"
          >
            [ MARK AS VERIFIED ]
          </button>
        )}
      </div>
    </section>
  );
}

/** The loud warning of a contact whose identity key is not the pinned one. */
export function KeyChangedWarning({ contact, name }: { contact: ContactIdentity; name: string }) {
  return (
    <div
      role="alert"
      data-testid="dm-key-changed"
      className="mx-auto max-w-4xl border-y-2 border-danger bg-danger/15 px-3 py-3 text-danger sm:px-4"
    >
      <p className="text-sm font-bold tracking-[0.2em]">⚠ KEY CHANGED</p>
      <p className="mt-1 text-xs leading-relaxed">
        The identity key the server now presents for {name} is not the one pinned in this browser.
        Someone — possibly the server — may be impersonating them. Sending is blocked and their
        messages are not shown.
      </p>
      <dl className="mt-2 grid gap-x-3 gap-y-0.5 font-mono text-xs break-all sm:grid-cols-[auto_1fr]">
        <dt className="text-muted">pinned</dt>
        <dd data-testid="dm-key-changed-pinned">{contact.pinnedFingerprint}</dd>
        <dt className="text-muted">presented</dt>
        <dd>{contact.fingerprint}</dd>
      </dl>
    </div>
  );
}

const TRUST_TEXT: Record<ContactIdentity['trust'], string> = {
  'first-use': 'UNVERIFIED',
  pinned: 'UNVERIFIED',
  verified: 'VERIFIED',
  changed: 'KEY CHANGED',
};

const TRUST_CLASS: Record<ContactIdentity['trust'], string> = {
  'first-use': 'border-warning/70 text-warning',
  pinned: 'border-warning/70 text-warning',
  verified: 'border-primary text-primary',
  changed: 'border-danger bg-danger text-background',
};

/**
 * The contact's identity state as a small badge. A key pinned on first use and one pinned earlier
 * read the same: neither has been compared, and the title says what to do.
 */
export function TrustBadge({ trust }: { trust: ContactIdentity['trust'] }) {
  return (
    <span
      data-testid="dm-identity-state"
      data-trust={trust}
      title={
        trust === 'verified'
          ? 'You compared the safety number for this key'
          : trust === 'changed'
            ? 'The identity key differs from the one pinned in this browser'
            : 'Pinned in this browser; compare the safety number to verify'
      }
      className={`inline-block border px-1.5 py-px text-xs font-bold tracking-widest ${TRUST_CLASS[trust]}`}
    >
      {trust === 'verified' ? '✓ ' : trust === 'changed' ? '⚠ ' : ''}
      {TRUST_TEXT[trust]}
    </span>
  );
}
