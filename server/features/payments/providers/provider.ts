/**
 * A payment processor as the payment service sees it (DESIGN.md "Payments"): it opens an invoice
 * (an address and the exact amount) and reports what the chain has seen of it. Two
 * implementations: the local sandbox chain and the NOWPayments adapter.
 */
import type {
  PaymentCurrency,
  ProcessorStatus,
  TierId,
} from '../../../../shared/protocol/http/payments.js';

export interface InvoiceRequest {
  /** The payment's public reference (never the payment id itself). */
  ref: string;
  tier: TierId;
  currency: PaymentCurrency;
  amountUsd: number;
  /** The amount from this server's price feed; the sandbox invoices it, a processor quotes its own. */
  quote: string | null;
}

export interface Invoice {
  address: string;
  /** Memo or destination tag needed beside the address, or null. */
  extraId: string | null;
  /** The exact amount to send, decimal string. */
  amount: string;
  /** The processor's own id of the payment, or null (sandbox). */
  providerRef: string | null;
}

/** The chain's view of a payment: where it stands now. */
export interface ChainObservation {
  status: 'pending' | 'confirming' | 'confirmed' | 'expired' | 'failed';
  confirmations: number;
  transactionHash: string | null;
  paidAmount: string | null;
  /** The processor's own word for the payment; absent on the sandbox. */
  providerStatus?: ProcessorStatus;
}

/** What the service knows of a payment when it asks the provider. */
export interface ObservedPayment {
  providerRef: string | null;
  amount: string;
  requiredConfirmations: number;
  paidAmount: string | null;
  transactionHash: string | null;
  broadcastAt: Date | null;
  providerCheckedAt: Date | null;
}

export interface PaymentProvider {
  readonly name: 'sandbox' | 'nowpayments';
  /** Whether amounts come from this server's price feed (sandbox) or from the processor. */
  readonly usesPriceFeed: boolean;
  createInvoice(request: InvoiceRequest): Promise<Invoice>;
  /**
   * Where the payment stands, or null when there is nothing new to learn right now (the
   * processor was asked less than a polling interval ago).
   */
  observe(payment: ObservedPayment, now: number): Promise<ChainObservation | null>;
  /**
   * The processor's own estimate of `usd` in `currency` and its minimum amount (issue 32);
   * absent when amounts come from this server's prices (the sandbox).
   */
  quote?(currency: PaymentCurrency, usd: number): Promise<ProcessorQuote>;
}

/** A processor's estimate: coins for the USD amount asked, and the smallest payable amount. */
export interface ProcessorQuote {
  amount: number;
  minAmount: number | null;
}

/** A processor that could not be reached or answered nonsense. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  /** True when the processor could not be reached or failed (network, timeout, 5xx). */
  readonly unreachable: boolean;

  constructor(message: string, options: { cause?: unknown; unreachable?: boolean } = {}) {
    super(message, { cause: options.cause });
    this.unreachable = options.unreachable ?? false;
  }
}
