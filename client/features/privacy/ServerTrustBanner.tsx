/**
 * The page-wide alert when the server's identity failed its check (spec 000 §4 "Certificate
 * status": CERT_MISMATCH in the message path with a RESET_CERTIFICATES button). Nothing is sent to
 * the server meanwhile. Reset forgets the pins, pins what the server presents now and reloads the
 * page so every connection starts from the new pin. A check that got no answer offers a retry.
 */
import { useSyncExternalStore } from 'react';
import { TEXT } from '../../../shared/protocol/errors.js';
import { CertificateAlert } from '../e2ee/CertificateAlert.js';
import { getServerTrust } from './server-trust.js';

export function ServerTrustBanner() {
  const trust = getServerTrust();
  const state = useSyncExternalStore(trust.subscribe, trust.getState);
  if (state.status === 'invalid') {
    return (
      <CertificateAlert
        onReset={() => {
          void trust.reset().then(() => window.location.reload());
        }}
      />
    );
  }
  if (state.status === 'unavailable') {
    return (
      <div
        role="alert"
        data-testid="certificate-unavailable"
        className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-warning bg-warning/10 px-3 py-1.5 text-xs tracking-wider text-warning"
      >
        <span className="font-bold">{TEXT.certFail}</span>
        <span className="flex-1 text-fg">
          The server&apos;s identity could not be checked: nothing is sent until it can be.
        </span>
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="sc-btn border-warning px-2 py-0.5 text-[11px] text-warning"
        >
          [RETRY]
        </button>
      </div>
    );
  }
  return null;
}
