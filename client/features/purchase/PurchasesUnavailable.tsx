/**
 * What /get-key shows when this server sells no keys (issue 31: PAYMENT_PROVIDER is none, or
 * unset on a network address): the reason in plain words and the way to a key, its
 * administrator. No tier, currency or payment control is rendered, so none can fail.
 */
import { PAYMENT_TEXT } from '../../../shared/protocol/http/payments.js';
import { PANEL } from '../../ui/landing-styles.js';

export function PurchasesUnavailable() {
  return (
    <section
      role="status"
      aria-labelledby="purchases-unavailable-heading"
      className={`${PANEL} p-4 text-sm`}
      data-testid="purchases-unavailable"
    >
      <h2
        id="purchases-unavailable-heading"
        className="mb-2 text-sm font-bold tracking-[0.25em] text-warning"
      >
        PURCHASES UNAVAILABLE
      </h2>
      <p className="mb-2 text-fg">{PAYMENT_TEXT.purchasesUnavailable}.</p>
      <p className="text-muted">
        Keys for this server are issued by its administrator: ask them for a key file (.sck), then
        log in with it on the landing page. You can also enter the public channel without a key.
      </p>
    </section>
  );
}
