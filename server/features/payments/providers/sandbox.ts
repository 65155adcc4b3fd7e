/**
 * The local sandbox chain (PAYMENT_PROVIDER=sandbox; the default on a loopback HOST only):
 * nothing leaves the machine. An invoice gets a made-up address; `POST /api/crypto/sandbox/pay` broadcasts an amount, and
 * from then on one confirmation arrives every SANDBOX_CONFIRMATION_SECONDS until the currency's
 * required count. Everything it knows lives in the payment row (paid amount, broadcast time), so
 * every process computes the same confirmations from the same clock.
 */
import { randomBytes } from 'node:crypto';
import { parseDecimal } from '../decimal.js';
import type {
  ChainObservation,
  Invoice,
  InvoiceRequest,
  ObservedPayment,
  PaymentProvider,
} from './provider.js';

/** Chains that need a memo or destination tag beside the address. */
const MEMO_CURRENCIES = new Set(['XRP', 'XLM']);

export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox' as const;
  readonly usesPriceFeed = true;

  constructor(private readonly confirmationSeconds: number) {}

  async createInvoice(request: InvoiceRequest): Promise<Invoice> {
    if (request.quote === null) throw new Error('the sandbox needs a quote');
    return {
      address: `sandbox-${request.currency.toLowerCase()}-${randomBytes(20).toString('hex')}`,
      extraId: MEMO_CURRENCIES.has(request.currency)
        ? String(randomBytes(4).readUInt32BE(0) % 1_000_000_000)
        : null,
      amount: request.quote,
      providerRef: null,
    };
  }

  async observe(payment: ObservedPayment, now: number): Promise<ChainObservation> {
    const paid = payment.paidAmount === null ? null : parseDecimal(payment.paidAmount);
    const due = parseDecimal(payment.amount);
    if (paid === null || due === null || paid < due || payment.broadcastAt === null) {
      // Nothing sent, or less than the invoice: it never confirms.
      return {
        status: 'pending',
        confirmations: 0,
        transactionHash: payment.transactionHash,
        paidAmount: payment.paidAmount,
      };
    }
    const elapsed = Math.max(0, now - payment.broadcastAt.getTime());
    const confirmations = Math.min(
      payment.requiredConfirmations,
      Math.floor(elapsed / (this.confirmationSeconds * 1000)),
    );
    return {
      status: confirmations >= payment.requiredConfirmations ? 'confirmed' : 'confirming',
      confirmations,
      transactionHash: payment.transactionHash,
      paidAmount: payment.paidAmount,
    };
  }

  /** A made-up transaction hash for a sandbox broadcast. */
  static transactionHash(): string {
    return `sandbox-tx-${randomBytes(32).toString('hex')}`;
  }
}
