/**
 * "Remember this key on this device" at key login (docs/crypto.md "Remembered key"): off by
 * default, with the warning about shared machines and an optional passphrase. Shown once a key
 * file is chosen, on the landing page's key card and on the key page.
 */
import { useId, useState } from 'react';
import { REMEMBER_PASSPHRASE_MIN_LENGTH } from '../lib/key-file/remember-policy.js';
import type { RememberChoice } from '../lib/session/auth-context.js';

export interface RememberKeyState {
  isRemembering: boolean;
  setRemembering: (value: boolean) => void;
  passphrase: string;
  setPassphrase: (value: string) => void;
  /** What to pass to `authenticate`: undefined when not ticked. */
  choice: RememberChoice | undefined;
  /** A passphrase was typed but is too short: the login waits. */
  isInvalid: boolean;
}

export function useRememberKey(): RememberKeyState {
  const [isRemembering, setRemembering] = useState(false);
  const [passphrase, setPassphrase] = useState('');
  const isInvalid =
    isRemembering && passphrase !== '' && passphrase.length < REMEMBER_PASSPHRASE_MIN_LENGTH;
  const choice = isRemembering ? (passphrase === '' ? {} : { passphrase }) : undefined;
  return { isRemembering, setRemembering, passphrase, setPassphrase, choice, isInvalid };
}

export function RememberKeyOption({ state }: { state: RememberKeyState }) {
  const ids = useId();
  return (
    <div className="space-y-2 text-xs" data-testid="remember-key">
      <label className="flex cursor-pointer items-start gap-2">
        <input
          type="checkbox"
          checked={state.isRemembering}
          onChange={(event) => state.setRemembering(event.currentTarget.checked)}
          className="mt-0.5 size-4 shrink-0 accent-primary"
          data-testid="remember-key-checkbox"
          aria-describedby={`${ids}-hint`}
        />
        <span>
          <span className="font-bold tracking-widest text-primary">
            Remember this key on this device
          </span>
          <span id={`${ids}-hint`} className="block leading-relaxed text-muted">
            A reload or a new tab keeps you verified and your direct messages open. Don&apos;t use
            on shared machines: anyone using this browser profile can act as you, unless you set a
            passphrase. Forget Key erases it.
          </span>
        </span>
      </label>
      {state.isRemembering ? (
        <div className="pl-6">
          <label htmlFor={`${ids}-passphrase`} className="block tracking-widest text-muted">
            PASSPHRASE (OPTIONAL, ASKED AFTER EACH RELOAD)
          </label>
          <input
            id={`${ids}-passphrase`}
            type="password"
            autoComplete="new-password"
            value={state.passphrase}
            onChange={(event) => state.setPassphrase(event.currentTarget.value)}
            className="mt-1 w-full max-w-xs border border-border bg-background px-2 py-1 text-fg"
            data-testid="remember-key-passphrase"
            aria-invalid={state.isInvalid}
            aria-describedby={`${ids}-passphrase-rule`}
          />
          <p
            id={`${ids}-passphrase-rule`}
            className={state.isInvalid ? 'mt-1 text-danger' : 'mt-1 text-muted'}
          >
            At least {REMEMBER_PASSPHRASE_MIN_LENGTH} characters, or leave it empty to open the key
            without asking in this browser.
          </p>
        </div>
      ) : null}
    </div>
  );
}
