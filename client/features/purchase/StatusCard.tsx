/**
 * The payment status card (spec 001 §4): the status, its progress figure (pending 20 %,
 * confirming 40 % plus confirmations over required scaled to 40 %, confirmed 80 %, generating
 * 90 %, ready 100 %), the confirmations on the sandbox chain or, with a real processor that
 * does not count them, the processor's own state in words (issue 32), the key made in this browser, and saving it with the
 * server's registration receipt (issue 32).
 */
import { Link } from 'wouter';
import {
  paymentProgress,
  PROCESSOR_STATUS_TEXT,
  type PaymentStatusResponse,
} from '../../../shared/protocol/http/payments.js';
import { BUTTON_PRIMARY, BUTTON_SECONDARY, PANEL } from '../../ui/landing-styles.js';
import type { KeyPhase } from './use-purchase.js';

interface StatusCardProps {
  payment: PaymentStatusResponse;
  keyPhase: KeyPhase;
  keyError: string | null;
  hasLocalKey: boolean;
  keyGenerationFailed: boolean;
  pollingStopped: boolean;
  downloaded: { fileName: string } | null;
  onRetryKey: () => void;
  onResume: () => void;
  onDownload: () => void;
  onReceipt: () => void;
  onStartOver: () => void;
}

const KEY_PHASE_TEXT: Record<KeyPhase, string | null> = {
  idle: null,
  making: 'Making your key pair in this browser…',
  sending: 'Sending the public key and its proof to the server…',
  sent: null,
  failed: null,
};

const STATUS_TEXT: Record<PaymentStatusResponse['status'], string> = {
  pending: 'AWAITING PAYMENT',
  confirming: 'CONFIRMING ON CHAIN',
  confirmed: 'PAYMENT CONFIRMED',
  generating: 'REGISTERING YOUR KEY',
  ready: 'KEY READY',
  expired: 'PAYMENT EXPIRED',
  failed: 'PAYMENT FAILED',
};

export function StatusCard(props: StatusCardProps) {
  const { payment } = props;
  const progress = paymentProgress(
    payment.status,
    payment.confirmations,
    payment.requiredConfirmations,
  );
  const isEnded = payment.status === 'expired' || payment.status === 'failed';
  const isUnderpaid =
    payment.status === 'pending' && payment.paidAmount !== null && payment.paidAmount !== '0';
  return (
    <section className={`${PANEL} p-5`} aria-labelledby="status-heading" data-testid="status-card">
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h3 id="status-heading" className="text-sm font-bold tracking-[0.25em] text-primary">
          PAYMENT STATUS
        </h3>
        <span
          className={`text-sm font-bold tracking-[0.2em] ${isEnded ? 'text-danger' : 'text-accent'}`}
          data-testid="payment-status"
          data-status={payment.status}
          role="status"
        >
          {STATUS_TEXT[payment.status]}
        </span>
      </div>
      <div
        className="mb-2 h-3 w-full border border-border bg-background"
        role="progressbar"
        aria-label="Payment progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress}
      >
        <div
          className="h-full bg-primary transition-[width] duration-500"
          style={{ width: `${progress}%` }}
        />
      </div>
      <div className="mb-4 flex justify-between text-xs text-muted">
        <span data-testid="payment-progress">{progress}%</span>
        {payment.sandbox ? (
          <span data-testid="payment-confirmations">
            CONFIRMATIONS {payment.confirmations}/{payment.requiredConfirmations}
          </span>
        ) : (
          // The processor does not count confirmations: its own state, in words (issue 32).
          <span data-testid="payment-processor-status">
            PROCESSOR:{' '}
            {payment.processorStatus
              ? PROCESSOR_STATUS_TEXT[payment.processorStatus]
              : 'waiting for the payment'}
          </span>
        )}
      </div>
      {payment.transactionHash ? (
        <p className="mb-3 break-all text-xs text-muted">
          TX <span className="text-fg">{payment.transactionHash}</span>
        </p>
      ) : null}
      {isUnderpaid ? (
        <p
          role="alert"
          className="mb-3 border border-warning/60 p-2 text-xs text-warning"
          data-testid="underpaid"
        >
          Received {payment.paidAmount} {payment.currency}, less than the invoice. A payment below{' '}
          {payment.amount} {payment.currency} never confirms: send the rest to the same address.
        </p>
      ) : null}
      {payment.status === 'pending' && !isUnderpaid ? (
        <p className="mb-3 text-xs text-muted">
          Waiting for your transaction. This page checks every 10 seconds; you can reload it, the
          payment is kept in this browser for 20 minutes and in the page address.
        </p>
      ) : null}
      {KEY_PHASE_TEXT[props.keyPhase] ? (
        <p className="mb-3 text-xs text-accent" role="status" data-testid="key-phase">
          {KEY_PHASE_TEXT[props.keyPhase]}
        </p>
      ) : null}
      {props.keyError ? (
        <p className="mb-3 text-xs text-danger" role="alert" data-testid="key-error">
          {props.keyError}
        </p>
      ) : null}
      {payment.keySubmitted && payment.status !== 'ready' ? (
        <p className="mb-3 text-xs text-muted" data-testid="key-submitted">
          {props.hasLocalKey
            ? 'Your key was made in this browser; the server holds only its public part and registers it once the payment is confirmed.'
            : 'The key of this order was made in another browser: only that browser can save it. This page still follows the payment.'}
        </p>
      ) : null}
      {props.keyGenerationFailed ? (
        <div className="mb-3 flex flex-wrap items-center gap-3 text-xs text-danger" role="alert">
          Key generation failed.
          <button type="button" className={BUTTON_SECONDARY} onClick={props.onRetryKey}>
            [ RETRY ]
          </button>
        </div>
      ) : null}
      {props.pollingStopped ? (
        <div className="mb-3 flex flex-wrap items-center gap-3 text-xs text-warning">
          Monitoring stopped after 60 minutes.
          <button type="button" className={BUTTON_SECONDARY} onClick={props.onResume}>
            [ CHECK AGAIN ]
          </button>
        </div>
      ) : null}
      {payment.status === 'ready' ? <ReadyPanel {...props} /> : null}
      {isEnded ? (
        <div className="flex flex-wrap items-center gap-3 text-xs text-muted">
          {payment.status === 'expired'
            ? 'No payment arrived within 20 minutes. Do not send anything to this address.'
            : 'The processor reported this payment as failed.'}
          <button type="button" className={BUTTON_PRIMARY} onClick={props.onStartOver}>
            START OVER
          </button>
        </div>
      ) : null}
    </section>
  );
}

function ReadyPanel(props: StatusCardProps) {
  const { payment } = props;
  const receipt = payment.receipt;
  return (
    <div className="space-y-3 text-xs">
      <p className="text-fg">
        Key <span className="text-accent">{payment.keyId}</span> is registered
        {receipt ? (
          <>
            {' '}
            for <span className="text-accent">{receipt.username}</span> (level{' '}
            {receipt.level.toUpperCase()}, fingerprint{' '}
            <span className="break-all">{receipt.fingerprint.slice(0, 16)}…</span>)
          </>
        ) : null}
        .
      </p>
      {props.downloaded ? (
        <div className="space-y-3" data-testid="download-done">
          <p className="text-primary">
            Saved {props.downloaded.fileName}. This browser no longer keeps it and the server never
            had it: keep this file safe, it is the only one.
          </p>
          <div className="flex flex-wrap gap-3">
            <button type="button" className={BUTTON_SECONDARY} onClick={props.onDownload}>
              [ SAVE AGAIN ]
            </button>
            <Link href="/landing" className={BUTTON_PRIMARY}>
              USE YOUR KEY
            </Link>
          </div>
        </div>
      ) : props.hasLocalKey ? (
        <>
          <p className="text-warning">
            The key file was made in this browser and exists nowhere else: save it now. It leaves
            this browser&apos;s storage once saved.
          </p>
          <button
            type="button"
            className={BUTTON_PRIMARY}
            onClick={props.onDownload}
            data-testid="download-key"
          >
            SAVE KEY FILE
          </button>
        </>
      ) : (
        <p className="text-danger" role="alert" data-testid="key-gone">
          This browser does not hold the key file of this order: it was made in the browser where
          the purchase started, or it was already saved. The server never holds a purchased private
          key, so it cannot send it again.
        </p>
      )}
      {receipt ? (
        <button
          type="button"
          className={BUTTON_SECONDARY}
          onClick={props.onReceipt}
          data-testid="download-receipt"
        >
          [ SAVE REGISTRATION RECEIPT ]
        </button>
      ) : null}
    </div>
  );
}
