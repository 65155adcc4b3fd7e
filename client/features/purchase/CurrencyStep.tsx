/**
 * Step 2: name the key (issue 32: the admin-issued key's username rule, unique on this server),
 * choose a cryptocurrency (spec 001 §2, §9) and open the payment.
 */
import { PAYMENT_CURRENCIES } from '../../../shared/constants.js';
import {
  currencyOffer,
  requiredConfirmations,
  type CurrencyAvailability,
  type PaymentCurrency,
  type PricesResponse,
} from '../../../shared/protocol/http/payments.js';
import { KEY_USERNAME_MAX_LENGTH } from '../../../shared/crypto/key-file-schema.js';
import { BUTTON_PRIMARY, BUTTON_SECONDARY, PANEL } from '../../ui/landing-styles.js';
import { CURRENCY_NAMES, type Tier } from './tiers.js';

interface CurrencyStepProps {
  tier: Tier;
  selected: PaymentCurrency | null;
  prices: PricesResponse | undefined;
  isCreating: boolean;
  error: string | null;
  username: string;
  usernameError: string | null;
  onUsername: (username: string) => void;
  onChoose: (currency: PaymentCurrency) => void;
  onBack: () => void;
  onContinue: () => void;
}

/** An estimate from the server's price of the currency (the invoice holds the exact amount). */
function estimate(entry: CurrencyAvailability | undefined, usd: number) {
  if (!entry?.priceUsd) return null;
  const amount = usd / entry.priceUsd;
  const digits = amount >= 1000 ? 2 : 8;
  return `≈ ${amount.toFixed(digits)} ${entry.currency}${entry.simulated ? ' (simulated sandbox price)' : ''}`;
}

export function CurrencyStep(props: CurrencyStepProps) {
  const { tier, selected, prices } = props;
  const entryOf = (currency: PaymentCurrency) =>
    prices?.currencies.find((entry) => entry.currency === currency);
  const selectedAvailable =
    selected !== null && currencyOffer(entryOf(selected), tier.minAmountUsd).available;
  return (
    <section aria-labelledby="currency-heading">
      <h2 id="currency-heading" className="mb-1 text-sm font-bold tracking-[0.25em] text-primary">
        STEP 2 // CHOOSE A CRYPTOCURRENCY
      </h2>
      <p className="mb-4 text-xs text-muted">
        {tier.name} · ${tier.minAmountUsd} USD ·{' '}
        {prices
          ? prices.fallback
            ? 'live prices unavailable: minimum amounts shown'
            : `BTC $${prices.bitcoin.price?.toLocaleString('en-US')} · ETH $${prices.ethereum.price?.toLocaleString('en-US')}`
          : 'loading prices…'}
      </p>
      {prices?.simulated ? (
        <p
          className="mb-4 border border-accent/60 p-3 text-xs text-accent"
          data-testid="prices-simulated"
        >
          SANDBOX: the amounts below come from a simulated price table, not market prices. No real
          money moves on this server.
        </p>
      ) : null}
      <label className="mb-4 block text-xs" htmlFor="purchase-username">
        <span className="mb-1 block tracking-[0.3em] text-muted">KEY USERNAME</span>
        <input
          id="purchase-username"
          className="w-full max-w-sm border border-border bg-background px-3 py-2 text-sm text-fg"
          value={props.username}
          maxLength={KEY_USERNAME_MAX_LENGTH}
          autoComplete="off"
          aria-invalid={props.usernameError !== null}
          aria-describedby="purchase-username-hint"
          onChange={(event) => props.onUsername(event.target.value)}
          data-testid="purchase-username"
        />
        <span
          id="purchase-username-hint"
          className={`mt-1 block ${props.usernameError ? 'text-danger' : 'text-muted'}`}
          data-testid="purchase-username-hint"
        >
          {props.usernameError ??
            'The name others see in chat. 1 to 64 printable characters; it must be free on this server.'}
        </span>
      </label>
      <div
        role="radiogroup"
        aria-label="Cryptocurrency"
        className="mb-4 grid grid-cols-2 gap-2 sm:grid-cols-4 lg:grid-cols-6"
      >
        {PAYMENT_CURRENCIES.map((currency) => {
          // Unknown until the prices answer: nothing can be chosen before the server says so.
          const offer = prices
            ? currencyOffer(entryOf(currency), tier.minAmountUsd)
            : { available: false, reason: null };
          return (
            <button
              key={currency}
              type="button"
              role="radio"
              aria-checked={selected === currency}
              aria-disabled={!offer.available}
              disabled={!offer.available}
              title={offer.reason ?? undefined}
              onClick={() => props.onChoose(currency)}
              data-testid={`currency-${currency}`}
              className={`border px-3 py-2 text-left text-xs transition-colors ${
                !offer.available
                  ? 'cursor-not-allowed border-border bg-surface text-muted opacity-60'
                  : selected === currency
                    ? 'border-primary bg-primary/15 text-primary'
                    : 'border-border bg-surface text-fg hover:border-primary'
              }`}
            >
              <span className="block font-bold tracking-[0.15em]">{currency}</span>
              <span className="block text-xs text-muted">{CURRENCY_NAMES[currency]}</span>
              {offer.reason ? (
                <span
                  className="block text-xs text-danger"
                  data-testid={`currency-${currency}-reason`}
                >
                  {offer.reason}
                </span>
              ) : null}
            </button>
          );
        })}
      </div>
      {selected ? (
        <p className={`${PANEL} mb-4 p-3 text-xs`} data-testid="currency-estimate">
          Pay with {CURRENCY_NAMES[selected]} ({selected}).{' '}
          {estimate(entryOf(selected), tier.minAmountUsd) ??
            'The exact amount is quoted on the invoice'}
          . Needs {requiredConfirmations(selected)} confirmations.
        </p>
      ) : null}
      {props.error ? (
        <p
          role="alert"
          className="mb-4 border border-danger/60 p-3 text-xs text-danger"
          data-testid="payment-error"
        >
          {props.error}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-3">
        <button type="button" className={BUTTON_SECONDARY} onClick={props.onBack}>
          [ BACK ]
        </button>
        <button
          type="button"
          className={BUTTON_PRIMARY}
          disabled={!selectedAvailable || props.username.trim() === '' || props.isCreating}
          onClick={props.onContinue}
          data-testid="payment-create"
        >
          {props.isCreating ? 'GENERATING…' : 'GENERATE PAYMENT'}
        </button>
      </div>
    </section>
  );
}
