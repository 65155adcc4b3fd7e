/**
 * What the page shows when the server's identity failed its check (spec 000 §4 "Certificate
 * status": CERT_MISMATCH with a RESET_CERTIFICATES button; §8 "Certificate mismatch"). Nothing is
 * sent to the server meanwhile, so the app's screens are replaced by this notice. Reset forgets the
 * pins, pins what the server presents now and reloads the page so every connection starts from the
 * new pin. A check that got no answer offers a retry.
 */
import { type ReactNode, useSyncExternalStore } from 'react';
import { TEXT } from '../../../shared/protocol/errors.js';
import { getServerTrust } from '../../lib/privacy/server-trust.js';

function Notice({
  title,
  tone,
  testId,
  children,
}: {
  title: string;
  tone: 'danger' | 'warning';
  testId: string;
  children: ReactNode;
}) {
  const border = tone === 'danger' ? 'border-danger' : 'border-warning';
  const text = tone === 'danger' ? 'text-danger' : 'text-warning';
  return (
    <main className="flex min-h-dvh items-center justify-center bg-background p-4">
      <section
        role="alert"
        data-testid={testId}
        className={`w-full max-w-xl border ${border} bg-surface p-5 text-sm tracking-wide`}
      >
        <h1 className={`mb-3 text-base font-bold tracking-widest ${text}`}>{title}</h1>
        {children}
      </section>
    </main>
  );
}

/** Renders the app, or instead of it the notice of a failed identity check. */
export function ServerTrustGate({ children }: { children: ReactNode }) {
  const trust = getServerTrust();
  const state = useSyncExternalStore(trust.subscribe, trust.getState);
  const pinned = state.pins.find((pin) => pin.origin === window.location.origin);

  if (state.status === 'invalid') {
    return (
      <Notice title={`⚠ ${TEXT.certMismatch}`} tone="danger" testId="certificate-alert">
        <p className="mb-3 text-fg">{TEXT.certificateValidationFailed}.</p>
        <p className="mb-3 text-muted">
          This server does not present the identity your browser pinned on its first visit. Nothing
          has been sent to it. Someone may be intercepting the connection — or the operator replaced
          the server&apos;s certificate or identity key.
        </p>
        <dl className="mb-4 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
          <dt className="text-muted">PINNED</dt>
          <dd className="break-all text-fg" data-testid="pinned-fingerprint">
            {pinned ? pinned.fingerprint : '—'}
          </dd>
          <dt className="text-muted">PRESENTED</dt>
          <dd className="break-all text-danger" data-testid="presented-fingerprint">
            {state.fingerprint ?? '—'}
          </dd>
        </dl>
        <p className="mb-4 text-xs text-muted">
          Reset only if you have confirmed the change with the operator through another channel.
        </p>
        <button
          type="button"
          data-testid="reset-certificates"
          className="sc-btn border-danger px-3 py-1 text-xs text-danger"
          onClick={() => {
            void trust.reset().then(() => window.location.reload());
          }}
        >
          [ {TEXT.resetCertificates} ]
        </button>
      </Notice>
    );
  }
  if (state.status === 'unavailable') {
    return (
      <Notice title={`⚠ ${TEXT.certFail}`} tone="warning" testId="certificate-unavailable">
        <p className="mb-4 text-fg">
          The server&apos;s identity could not be checked, so nothing is sent to it until it can be.
        </p>
        <button
          type="button"
          className="sc-btn border-warning px-3 py-1 text-xs text-warning"
          onClick={() => window.location.reload()}
        >
          [ RETRY ]
        </button>
      </Notice>
    );
  }
  return <>{children}</>;
}
