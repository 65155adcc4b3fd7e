/**
 * Step 3: the payment details (spec 001 §2): address and exact amount with copy buttons, the QR
 * code, the exact-amount warning, the sandbox chain's controls when it is the provider, and the
 * status card.
 */
import {
  paymentUri,
  PAYMENT_TEXT,
  type PaymentStatusResponse,
} from '../../../shared/protocol/http/payments.js';
import { BUTTON_SECONDARY, PANEL } from '../../ui/landing-styles.js';
import { CopyButton } from './CopyButton.js';
import { PaymentQr } from './PaymentQr.js';
import { StatusCard } from './StatusCard.js';
import { CURRENCY_NAMES, TIERS } from './tiers.js';
import type { Purchase } from './use-purchase.js';

function Field({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="mb-3">
      <p className="mb-1 text-xs tracking-[0.3em] text-muted">{label}</p>
      <div className="flex items-stretch gap-2">
        <code
          className="min-w-0 flex-1 break-all border border-border bg-background px-3 py-2 text-sm text-accent"
          data-testid={testId}
        >
          {value}
        </code>
        <CopyButton
          value={value}
          label={label.charAt(0) + label.slice(1).toLowerCase()}
          testId={`copy-${testId}`}
        />
      </div>
    </div>
  );
}

export function PaymentStep({
  purchase,
  payment,
}: {
  purchase: Purchase;
  payment: PaymentStatusResponse;
}) {
  const tier = TIERS.find((candidate) => candidate.id === payment.tier);
  const isOpen = payment.status === 'pending';
  return (
    <section aria-labelledby="payment-heading" className="space-y-4">
      <h2 id="payment-heading" className="text-sm font-bold tracking-[0.25em] text-primary">
        STEP 3 // PAYMENT
      </h2>
      <div className={`${PANEL} p-5`}>
        <p className="mb-4 text-xs text-muted" data-testid="order-summary">
          {tier?.name} · {CURRENCY_NAMES[payment.currency]} ({payment.currency}) · key name{' '}
          <span className="text-accent" data-testid="order-username">
            {payment.username ?? '—'}
          </span>{' '}
          · invoice valid until {new Date(payment.expiresAt).toLocaleTimeString('en-GB')}
        </p>
        <div className="flex flex-col gap-5 md:flex-row">
          <div className="min-w-0 flex-1">
            <Field label="ADDRESS" value={payment.address} testId="payment-address" />
            {payment.extraId ? (
              <Field
                label="MEMO / DESTINATION TAG"
                value={payment.extraId}
                testId="payment-extra-id"
              />
            ) : null}
            <Field label="AMOUNT" value={`${payment.amount}`} testId="payment-amount" />
            {isOpen ? (
              <p
                role="note"
                className="border border-warning/60 p-3 text-xs text-warning"
                data-testid="exact-amount-warning"
              >
                {PAYMENT_TEXT.exactAmount} Send exactly {payment.amount} {payment.currency} in one
                transaction. Less never confirms; the network fee is yours to add on top.
              </p>
            ) : null}
          </div>
          {/* Once the payment is on its way, no QR code invites a second one. */}
          {isOpen ? (
            <PaymentQr text={paymentUri(payment.currency, payment.address, payment.amount)} />
          ) : null}
        </div>
        {payment.sandbox && isOpen ? (
          <div
            className="mt-4 border border-dashed border-border p-3 text-xs"
            data-testid="sandbox-panel"
          >
            <p className="mb-2 text-muted">
              SANDBOX CHAIN: this server runs the local test chain; no real money moves.
              Confirmations arrive one at a time after a payment.
            </p>
            <button
              type="button"
              className={BUTTON_SECONDARY}
              disabled={purchase.isSending}
              onClick={() => void purchase.sandboxSend(payment.amount)}
              data-testid="sandbox-send"
            >
              [ SIMULATE PAYMENT OF {payment.amount} {payment.currency} ]
            </button>
          </div>
        ) : null}
      </div>
      {purchase.unreachable ? (
        <p
          role="alert"
          className="border border-warning/60 p-3 text-xs text-warning"
          data-testid="purchase-unreachable"
        >
          {purchase.unreachable}
        </p>
      ) : null}
      {payment.status !== 'ready' && payment.status !== 'expired' && payment.status !== 'failed' ? (
        <RecoveryCode paymentId={payment.paymentId} />
      ) : null}
      <StatusCard
        payment={payment}
        keyPhase={purchase.keyPhase}
        keyError={purchase.keyError}
        hasLocalKey={purchase.hasLocalKey}
        keyGenerationFailed={purchase.keyGenerationFailed}
        pollingStopped={purchase.pollingStopped}
        downloaded={purchase.downloaded}
        onRetryKey={purchase.retryKeyGeneration}
        onResume={purchase.resumeMonitoring}
        onDownload={purchase.download}
        onReceipt={purchase.downloadReceipt}
        onStartOver={purchase.startOver}
      />
    </section>
  );
}

/**
 * The recovery code: the payment id, the buyer's only credential for the order. Entered under
 * "resume a purchase" on /get-key it brings the order back on any browser; the key file itself
 * exists only in the browser that made it (docs/decisions.md "Key purchase").
 */
function RecoveryCode({ paymentId }: { paymentId: string }) {
  return (
    <div className={`${PANEL} p-4 text-xs`} data-testid="recovery-panel">
      <p className="mb-2 text-warning">
        Save this recovery code now. It is the only way back to this order if this page is closed:
        enter it under RESUME A PURCHASE on this page. Your key is made and kept in this browser;
        another browser can follow the order but cannot save this browser&apos;s key.
      </p>
      <Field label="RECOVERY CODE" value={paymentId} testId="recovery-code" />
    </div>
  );
}
