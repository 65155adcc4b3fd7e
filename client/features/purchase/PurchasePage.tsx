/**
 * /get-key (query payment={paymentId}): buy a key with cryptocurrency in three steps
 * (spec 001 §2): choose a tier, choose a cryptocurrency, then pay and download the key file.
 * The server is asked first whether it sells keys at all (issue 31); when it does not, the page
 * says so and offers no step of the flow, and no payment is looked up.
 */
import { Link } from 'wouter';
import { BUTTON_SECONDARY, GLOW_TEXT } from '../../ui/landing-styles.js';
import { CurrencyStep } from './CurrencyStep.js';
import { PaymentStep } from './PaymentStep.js';
import { PurchasesUnavailable } from './PurchasesUnavailable.js';
import { ResumePurchase } from './ResumePurchase.js';
import { TierStep } from './TierStep.js';
import { usePrices } from './use-prices.js';
import { usePurchase, type PurchaseStep } from './use-purchase.js';
import { usePurchaseAvailability } from './use-purchase-availability.js';

const STEPS: { step: PurchaseStep; label: string }[] = [
  { step: 1, label: 'TIER' },
  { step: 2, label: 'CURRENCY' },
  { step: 3, label: 'PAYMENT' },
];

export function PurchasePage() {
  const availability = usePurchaseAvailability();
  return (
    <main className="min-h-screen bg-background px-4 py-8 font-mono text-fg">
      <div className="mx-auto max-w-5xl">
        <header className="mb-6">
          <h1 className={`mb-2 text-2xl font-bold tracking-[0.25em] text-primary ${GLOW_TEXT}`}>
            OBTAIN A SECURE KEY
          </h1>
        </header>
        {availability.isPending ? (
          <p role="status" className="text-xs text-muted" data-testid="purchase-checking">
            Asking the server whether it sells keys…
          </p>
        ) : availability.data?.available === false ? (
          <>
            <PurchasesUnavailable />
            <nav className="mt-8 flex flex-wrap gap-3">
              <Link href="/landing" className={BUTTON_SECONDARY}>
                [ BACK TO LANDING ]
              </Link>
            </nav>
          </>
        ) : (
          // Available, or the question failed: the flow's own calls then report what goes wrong.
          <PurchaseFlow />
        )}
      </div>
    </main>
  );
}

/** The three steps, mounted only where the server sells keys. */
function PurchaseFlow() {
  const purchase = usePurchase();
  const prices = usePrices();
  const { step, payment } = purchase;
  return (
    <>
      <p className="mb-6 max-w-3xl text-sm text-muted">
        A key file (.sck) holds an ML-DSA-65 and an ECDSA P-256 key pair and logs you in on this
        server. Your browser makes the key pair; the server receives only its public part and
        registers it once your cryptocurrency payment is confirmed. The server never holds your
        private key.
      </p>
      <ol className="mb-6 flex flex-wrap gap-2 text-xs" aria-label="Purchase steps">
        {STEPS.map((entry) => (
          <li
            key={entry.step}
            aria-current={step === entry.step ? 'step' : undefined}
            data-testid={`step-${entry.step}`}
            className={`border px-3 py-1 tracking-[0.2em] ${
              step === entry.step
                ? 'border-primary bg-primary/15 text-primary'
                : step > entry.step
                  ? 'border-border text-fg'
                  : 'border-border text-muted'
            }`}
          >
            {entry.step}. {entry.label}
          </li>
        ))}
      </ol>
      {purchase.notice ? (
        <p
          role="alert"
          className="mb-4 border border-danger/60 p-3 text-xs text-danger"
          data-testid="purchase-notice"
        >
          {purchase.notice}
        </p>
      ) : null}
      {step === 1 ? <TierStep selected={purchase.tier} onChoose={purchase.chooseTier} /> : null}
      {step === 1 && !payment ? <ResumePurchase /> : null}
      {step === 2 && purchase.tier ? (
        <CurrencyStep
          tier={purchase.tier}
          selected={purchase.currency}
          prices={prices.data}
          isCreating={purchase.isCreating}
          error={purchase.paymentError}
          username={purchase.username}
          usernameError={purchase.usernameError}
          onUsername={purchase.chooseUsername}
          onChoose={purchase.chooseCurrency}
          onBack={() => purchase.goToStep(1)}
          onContinue={() => void purchase.createPayment()}
        />
      ) : null}
      {step === 3 && payment ? <PaymentStep purchase={purchase} payment={payment} /> : null}
      <nav className="mt-8 flex flex-wrap gap-3">
        <Link href="/landing" className={BUTTON_SECONDARY}>
          [ BACK TO LANDING ]
        </Link>
        {payment && step === 3 && payment.status === 'pending' ? (
          <button type="button" className={BUTTON_SECONDARY} onClick={purchase.startOver}>
            [ CANCEL AND START OVER ]
          </button>
        ) : null}
      </nav>
    </>
  );
}
