/**
 * The admin password prompt (spec 001 §4 "Admin console session", §5, §8): the password is
 * exchanged at once for a ten-minute admin session (admin-session.ts, memory only); a wrong
 * password clears the field; the server's lockout text (3 failures, 5 minutes) shows with a live
 * countdown and the button stays disabled until it ends. Used by the emergency panel and the
 * admin console, and by the chat room's Tor overlay (which logs each failure, spec 001 §8).
 */
import { useId, useState, type FormEvent } from 'react';
import { TEXT } from '../../shared/protocol/errors.js';
import { Bracketed, DIALOG_BUTTON } from './TerminalDialog.js';
import { AdminApiError, authenticateAdmin } from '../lib/admin/admin-api.js';
import { setAdminSession } from '../lib/admin/admin-session.js';
import { FIELD, HINT, LABEL } from './admin-styles.js';
import { formatRemaining, lockoutSecondsFromMessage } from '../lib/admin/lockout.js';
import { useNow } from '../lib/use-now.js';

export interface AdminPasswordGateProps {
  testIdPrefix: string;
  /** Told of each refused attempt, after the field is cleared. */
  onFailure?: () => void;
}

export function AdminPasswordGate({ testIdPrefix, onFailure }: AdminPasswordGateProps) {
  const ids = useId();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [lockedUntil, setLockedUntil] = useState(0);
  const [isBusy, setBusy] = useState(false);
  const now = useNow(1000, lockedUntil > 0);
  const lockedSeconds = Math.max(0, (lockedUntil - now) / 1000);
  const isLocked = lockedSeconds > 0;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (isBusy || isLocked) return;
    if (password === '') {
      setError(TEXT.adminPasswordRequired);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      setAdminSession(await authenticateAdmin(password));
    } catch (caught) {
      const message = caught instanceof Error ? caught.message : TEXT.adminAuthenticationError;
      setError(message);
      // A wrong password clears the field, as the other admin prompts do.
      setPassword('');
      const seconds = lockoutSecondsFromMessage(message);
      if (seconds !== null) setLockedUntil(Date.now() + seconds * 1000);
      else if (caught instanceof AdminApiError && caught.isLockedOut)
        setLockedUntil(Date.now() + 5 * 60_000);
      onFailure?.();
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="space-y-4" onSubmit={(event) => void submit(event)} noValidate>
      <div>
        <label htmlFor={`${ids}-password`} className={LABEL}>
          Admin password <span aria-hidden="true">*</span>
        </label>
        <input
          id={`${ids}-password`}
          type="password"
          className={FIELD}
          value={password}
          required
          autoFocus
          autoComplete="current-password"
          disabled={isBusy}
          aria-invalid={error !== null}
          aria-describedby={`${ids}-error ${ids}-hint`}
          data-testid={`${testIdPrefix}-password`}
          onChange={(event) => {
            setPassword(event.currentTarget.value);
            if (error === TEXT.adminPasswordRequired) setError(null);
          }}
        />
        <p id={`${ids}-hint`} className={HINT}>
          Three failed attempts lock admin access from this address for five minutes.
        </p>
      </div>
      <div
        id={`${ids}-error`}
        role="alert"
        className="min-h-5 space-y-1 text-xs"
        data-testid={`${testIdPrefix}-auth-error`}
      >
        {error ? <p className="font-bold text-danger">{error}</p> : null}
        {isLocked ? (
          <p className="text-warning" data-testid={`${testIdPrefix}-lockout`}>
            LOCKED · {formatRemaining(lockedSeconds)} remaining
          </p>
        ) : null}
      </div>
      <div className="flex justify-end">
        <button
          type="submit"
          className={DIALOG_BUTTON}
          disabled={isBusy || isLocked}
          data-testid={`${testIdPrefix}-authenticate`}
        >
          <Bracketed>{isBusy ? 'VERIFYING...' : 'AUTHENTICATE'}</Bracketed>
        </button>
      </div>
    </form>
  );
}
