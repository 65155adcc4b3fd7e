/**
 * The certificate mismatch in the message path (spec 000 §4 "Certificate status", §8): the
 * connection was aborted; RESET_CERTIFICATES forgets the pins, pins what the server presents now
 * and reconnects. Only for someone who knows why the certificate changed.
 */
import { TEXT } from '../../../shared/protocol/errors.js';

export function CertificateAlert({ onReset }: { onReset: () => void }) {
  return (
    <div
      role="alert"
      data-testid="certificate-alert"
      className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-danger bg-danger/10 px-3 py-1.5 text-xs tracking-wider text-danger"
    >
      <span className="font-bold">{TEXT.certMismatch}</span>
      <span className="flex-1 text-fg">{TEXT.certificateValidationFailed}</span>
      <button
        type="button"
        onClick={onReset}
        data-testid="reset-certificates"
        className="sc-btn border-danger px-2 py-0.5 text-xs text-danger"
      >
        <span aria-hidden="true">[</span>
        {TEXT.resetCertificates}
        <span aria-hidden="true">]</span>
      </button>
    </div>
  );
}
