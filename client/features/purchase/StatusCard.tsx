/**
 * The payment status card (spec 001 §4): the status, its progress figure (pending 20 %,
 * confirming 40 % plus confirmations over required scaled to 40 %, confirmed 80 %, generating
 * 90 %, ready 100 %), the confirmations, and the one-time key download.
 */
import { Link } from 'wouter';
import {
  paymentProgress,
  type PaymentStatusResponse,
} from '../../../shared/protocol/http/payments.js';
import { BUTTON_PRIMARY, BUTTON_SECONDARY, PANEL } from '../../ui/landing-styles.js';

interface StatusCardProps {
  payment: PaymentStatusResponse;
  keyGenerationFailed: boolean;
  pollingStopped: boolean;
  isDownloading: boolean;
  downloaded: { fileName: string } | null;
  downloadError: string | null;
  onRetryKey: () => void;
  onResume: () => void;
  onDownload: () => void;
  onStartOver: () => void;
}

const STATUS_TEXT: Record<PaymentStatusResponse['status'], string> = {
  pending: 'AWAITING PAYMENT',
  confirming: 'CONFIRMING ON CHAIN',
  confirmed: 'PAYMENT CONFIRMED',
  generating: 'GENERATING YOUR KEY',
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
        <span data-testid="payment-confirmations">
          CONFIRMATIONS {payment.confirmations}/{payment.requiredConfirmations}
        </span>
      </div>
      {payment.transactionHash ? (
        <p className="mb-3 break-all text-[0.7rem] text-muted">
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
  if (props.downloaded) {
    return (
      <div className="space-y-3 text-xs" data-testid="download-done">
        <p className="text-primary">
          Saved {props.downloaded.fileName}. The server has erased its copy: keep this file safe, it
          is the only one.
        </p>
        <Link href="/landing" className={BUTTON_PRIMARY}>
          USE YOUR KEY
        </Link>
      </div>
    );
  }
  return (
    <div className="space-y-3 text-xs">
      <p className="text-fg">
        Key <span className="text-accent">{payment.keyId}</span> is registered.
      </p>
      {payment.downloadUrl ? (
        <>
          <p className="text-warning">
            The key file can be downloaded once. The server erases it at the first download, or 20
            minutes after it was made.
          </p>
          <button
            type="button"
            className={BUTTON_PRIMARY}
            onClick={props.onDownload}
            disabled={props.isDownloading}
            data-testid="download-key"
          >
            {props.isDownloading ? 'DOWNLOADING…' : 'DOWNLOAD KEY FILE'}
          </button>
        </>
      ) : (
        <p className="text-danger" role="alert" data-testid="key-gone">
          This key file was already downloaded or has been erased: the server keeps it only until
          the first download or 20 minutes.
        </p>
      )}
      {props.downloadError ? (
        <p className="text-danger" role="alert" data-testid="download-error">
          {props.downloadError}
        </p>
      ) : null}
    </div>
  );
}
