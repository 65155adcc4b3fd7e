/**
 * "Resume a purchase" (issue 32): the recovery code shown during an order (its payment id)
 * brings the order back, on this browser or another. A malformed code is refused here with the
 * reason; an unknown or expired one is answered by the server on the next step.
 */
import { useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { PaymentIdSchema } from '../../../shared/protocol/http/payments.js';
import { BUTTON_SECONDARY, PANEL } from '../../ui/landing-styles.js';

export const RECOVERY_CODE_ERROR =
  'This is not a recovery code: it starts with pay_ followed by 64 digits 0-9 and letters a-f.';

export function ResumePurchase() {
  const [, navigate] = useLocation();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = PaymentIdSchema.safeParse(code.trim().toLowerCase());
    if (!parsed.success) {
      setError(RECOVERY_CODE_ERROR);
      return;
    }
    navigate(`/get-key?payment=${parsed.data}`, { replace: true });
  };
  return (
    <form
      className={`${PANEL} mt-6 p-4 text-xs`}
      onSubmit={submit}
      aria-labelledby="resume-heading"
      data-testid="resume-purchase"
    >
      <h2 id="resume-heading" className="mb-2 font-bold tracking-[0.25em] text-primary">
        RESUME A PURCHASE
      </h2>
      <p className="mb-2 text-muted">
        Enter the recovery code shown when you opened your order. The key file can be saved only in
        the browser that made it.
      </p>
      <div className="flex flex-wrap gap-2">
        <input
          className="min-w-0 flex-1 border border-border bg-background px-3 py-2 font-mono text-sm text-fg"
          value={code}
          onChange={(event) => {
            setCode(event.target.value);
            setError(null);
          }}
          aria-label="Recovery code"
          aria-invalid={error !== null}
          maxLength={100}
          autoComplete="off"
          data-testid="resume-code"
        />
        <button type="submit" className={BUTTON_SECONDARY} data-testid="resume-submit">
          [ RESUME ]
        </button>
      </div>
      {error ? (
        <p role="alert" className="mt-2 text-danger" data-testid="resume-error">
          {error}
        </p>
      ) : null}
    </form>
  );
}
