/**
 * The security status bar (spec 000 §2 "Security status bar with a collapsible details panel",
 * §4 "Security level label"): the level, end-to-end state, certificate, forward-secrecy key,
 * zero-knowledge key and authentication on one line, then the newest crypto status message
 * (cleared after 10 s, spec 000 §9); DETAILS opens the panel, LOG the crypto process log. A certificate failure and a key substitution are shown in red whatever is open.
 */
import { Suspense, useId, useState } from 'react';
import { TEXT } from '../../../shared/protocol/errors.js';
import { isPageOverTls } from '../../lib/privacy/pins.js';
import { currentStatusMessage, type CryptoLogLevel } from './crypto-log.js';
import { lazyComponent } from '../../lib/lazy-component.js';
import type { KeyAuthDetails } from './SecurityDetailsPanel.js';
import { type SecurityLevelLabel } from './security-level.js';
import { certificateText, unverifiedReadersText } from './security-text.js';
import { type RoomE2ee } from './use-room-e2ee.js';
import { useNow } from '../../lib/use-now.js';
import { loadTorVisitorStatus } from '../tor/index.js';

// The panels open on demand: their code loads with the first opening.
/** The onion address for every visitor while this server's onion service is up (issue 37). */
const TorVisitorStatus = lazyComponent(() => loadTorVisitorStatus(), 'TorVisitorStatus');
const SecurityDetailsPanel = lazyComponent(
  () => import('./SecurityDetailsPanel.js'),
  'SecurityDetailsPanel',
);
const CryptoLogPanel = lazyComponent(() => import('./CryptoLogPanel.js'), 'CryptoLogPanel');

const LEVEL_CLASS: Record<SecurityLevelLabel, string> = {
  MAXIMUM: 'text-primary',
  ENTERPRISE: 'text-accent',
  ENHANCED: 'text-warning',
  BASIC: 'text-orange',
};

const TOGGLE =
  'inline-flex min-h-6 items-center gap-1 border border-border px-1.5 text-xs tracking-widest text-primary hover:bg-primary/10 aria-expanded:bg-primary/15';

export interface SecurityStatusBarProps {
  e2ee: RoomE2ee;
  /** The callsign or key holder's name of this session. */
  identity: string;
  /** The premium key of this session (spec 000 §3 "Security state"), or null when public. */
  keyAuth: KeyAuthDetails | null;
}

const STATUS_MESSAGE_CLASS: Record<CryptoLogLevel, string> = {
  info: 'text-fg',
  success: 'text-primary',
  warning: 'text-warning',
  error: 'text-danger',
};

/** What the E2E field says: ACTIVE once keys are agreed and the link is up, else why not. */
function e2eText(e2ee: RoomE2ee): { text: string; className: string } {
  if (e2ee.engine === 'failed') return { text: 'UNAVAILABLE (NOT SENT)', className: 'text-danger' };
  if (e2ee.connection === 'reconnecting') {
    return { text: 'RECONNECTING (MESSAGES HELD)', className: 'text-warning' };
  }
  if (e2ee.connection === 'disconnected') return { text: 'DISCONNECTED', className: 'text-danger' };
  if (e2ee.engine !== 'ready') return { text: 'LOADING...', className: 'text-warning' };
  if (e2ee.status.phase === 'failed')
    return { text: 'FAILED (PLAINTEXT)', className: 'text-danger' };
  if (e2ee.status.phase === 'ready' && e2ee.status.roomId === null) {
    return { text: 'KEYS READY (NOT IN A ROOM)', className: 'text-muted' };
  }
  if (!e2ee.status.isReadyToSend) return { text: 'KEY AGREEMENT...', className: 'text-warning' };
  return { text: 'ACTIVE', className: 'text-primary' };
}

export function SecurityStatusBar({ e2ee, identity, keyAuth }: SecurityStatusBarProps) {
  const ids = useId();
  const [isDetailsOpen, setDetailsOpen] = useState(false);
  const [isLogOpen, setLogOpen] = useState(false);
  const { transport, status } = e2ee;
  const isCertFail = transport.certificate === 'invalid';
  const e2e = e2eText(e2ee);
  const pfsKeyId = transport.pfs.key?.keyId ?? null;
  const now = useNow(1000);
  const statusMessage = currentStatusMessage(e2ee.log, now);

  return (
    <section
      aria-label="Security status"
      data-testid="security-status-bar"
      className="border-b border-border bg-surface/60 text-xs tracking-widest"
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-1">
        <span>
          <span className="text-muted">PROTECTION: </span>
          <span className={`font-bold ${LEVEL_CLASS[e2ee.level]}`} data-testid="security-level">
            {e2ee.level}
          </span>
        </span>
        <span>
          <span className="text-muted">E2E: </span>
          <span className={e2e.className} data-testid="e2e-state">
            {e2e.text}
          </span>
        </span>
        <span className={isCertFail ? 'font-bold text-danger' : 'hidden sm:inline'}>
          <span className={isCertFail ? '' : 'text-muted'}>CERT: </span>
          <span data-testid="certificate-status">
            {certificateText(transport.certificate, isPageOverTls())}
          </span>
        </span>
        <span className="hidden sm:inline">
          <span className="text-muted">PFS: </span>
          <span className={pfsKeyId ? 'text-fg' : 'text-warning'} data-testid="pfs-key-id">
            {pfsKeyId ?? (transport.pfs.status === 'failed' ? 'FAILED' : TEXT.pfsNotInitialized)}
          </span>
        </span>
        <span className="hidden md:inline">
          <span className="text-muted">ZK: </span>
          <span className={status.zkFingerprint ? 'text-fg' : 'text-muted'}>
            {status.zkFingerprint ?? 'NONE'}
          </span>
        </span>
        <span className="hidden sm:inline">
          <span className="text-muted">AUTH: </span>
          <span className="text-accent" data-testid="security-authentication">
            {e2ee.authentication}
          </span>
        </span>
        {e2ee.hasKeySubstitution ? (
          <span role="alert" className="font-bold text-danger" data-testid="key-substitution-alert">
            <span aria-hidden="true">▲ </span>
            {TEXT.keySubstitutionDetected}
          </span>
        ) : null}
        {/* Always in the tree, so screen readers hear each new message; empty once cleared. */}
        <span
          role="status"
          data-testid="crypto-status-message"
          className={`min-w-0 truncate normal-case ${statusMessage ? STATUS_MESSAGE_CLASS[statusMessage.level] : ''}`}
        >
          {statusMessage?.text ?? ''}
        </span>
        <Suspense fallback={null}>
          <TorVisitorStatus variant="bar" />
        </Suspense>
        <span className="ml-auto flex gap-1.5">
          <button
            type="button"
            className={TOGGLE}
            aria-expanded={isDetailsOpen}
            aria-controls={`${ids}-details`}
            onClick={() => setDetailsOpen((open) => !open)}
            data-testid="security-details-toggle"
          >
            DETAILS<span aria-hidden="true">{isDetailsOpen ? ' ▲' : ' ▼'}</span>
          </button>
          <button
            type="button"
            className={TOGGLE}
            aria-expanded={isLogOpen}
            aria-controls={`${ids}-log`}
            onClick={() => setLogOpen((open) => !open)}
            data-testid="crypto-log-toggle"
          >
            CRYPTO LOG<span aria-hidden="true">{isLogOpen ? ' ▲' : ' ▼'}</span>
          </button>
        </span>
      </div>
      {status.unverifiedReaders.length > 0 ? (
        <p
          role="alert"
          className="border-t border-border px-3 py-1 font-bold text-warning"
          data-testid="unverified-readers-warning"
        >
          <span aria-hidden="true">▲ </span>
          {unverifiedReadersText(status.unverifiedReaders)}
        </p>
      ) : null}
      <Suspense fallback={null}>
        {isDetailsOpen ? (
          <SecurityDetailsPanel
            id={`${ids}-details`}
            e2ee={e2ee}
            identity={identity}
            keyAuth={keyAuth}
          />
        ) : null}
        {isLogOpen ? <CryptoLogPanel id={`${ids}-log`} entries={e2ee.log} /> : null}
      </Suspense>
    </section>
  );
}
