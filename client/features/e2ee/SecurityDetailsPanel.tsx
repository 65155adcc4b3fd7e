/**
 * The status bar's details (spec 000 §3 "Security state"): certificate status and pins,
 * zero-knowledge key info, forward-secrecy key, premium-key auth, session, keys and their ages, and
 * every member's verification. Never shows key material: ids and check values only.
 */
import { type ReactNode } from 'react';
import { PFS_KEY_ROTATION_MS, SIGNATURE_KEY_ROTATION_MS } from '../../../shared/constants.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import { isPageOverTls } from '../../lib/privacy/pins.js';
import { secureIdOf } from './e2ee-status.js';
import { certificateText, formatAge, TRUST_TEXT } from './security-text.js';
import type { MemberTrust } from './room-members.js';
import { type RoomE2ee } from './use-room-e2ee.js';
import { useNow } from '../../lib/use-now.js';
import { describePrivacy } from '../../lib/privacy/connection-privacy.js';
import { useConnectionPrivacy } from '../../lib/privacy/use-connection-privacy.js';

const TRUST_CLASS: Record<MemberTrust, string> = {
  checking: 'text-muted',
  verified: 'text-primary',
  unverified: 'text-warning',
  bad: 'font-bold text-danger',
};

function Row({ term, children, testId }: { term: string; children: ReactNode; testId?: string }) {
  return (
    <>
      <dt className="text-muted">{term}</dt>
      <dd className="min-w-0 break-words text-fg" data-testid={testId}>
        {children}
      </dd>
    </>
  );
}

/** The premium key behind this session (spec 000 §3 "Security state": keyId, level, capabilities). */
export interface KeyAuthDetails {
  keyId: string;
  level: string;
  capabilities: readonly string[];
}

export interface SecurityDetailsPanelProps {
  id: string;
  e2ee: RoomE2ee;
  identity: string;
  keyAuth: KeyAuthDetails | null;
}

export function SecurityDetailsPanel({ id, e2ee, identity, keyAuth }: SecurityDetailsPanelProps) {
  const now = useNow(1000);
  const { status, transport } = e2ee;
  const pfs = transport.pfs;
  const isCertFail = transport.certificate === 'invalid';
  const privacy = useConnectionPrivacy();

  return (
    <div
      id={id}
      data-testid="security-details"
      className="max-h-[45dvh] overflow-y-auto border-t border-border bg-background px-3 py-2 text-xs tracking-wider"
    >
      <dl className="grid grid-cols-[minmax(7rem,auto)_1fr] gap-x-3 gap-y-1">
        <Row term="PROTECTION" testId="details-level">
          {e2ee.level}
        </Row>
        {e2ee.engine !== 'ready' ? (
          <Row term="ENCRYPTION" testId="details-engine">
            {e2ee.engine === 'failed' ? (
              <span className="text-danger">
                the encryption code did not load: messages are not sent. Reload the page.
              </span>
            ) : (
              <span className="text-warning">loading the encryption code...</span>
            )}
          </Row>
        ) : null}
        <Row term="CERTIFICATE" testId="details-certificate">
          <span className={isCertFail ? 'font-bold text-danger' : ''}>
            {certificateText(transport.certificate, isPageOverTls())}
          </span>
          {transport.certificateFingerprint ? (
            <span className="text-muted">
              {' '}
              · SHA-256 {transport.certificateFingerprint.slice(0, 16)}…
            </span>
          ) : null}
          <span className="text-muted"> · {transport.pinnedCertificates.length} pinned</span>
          {isCertFail ? (
            <span className="mt-1 block">
              <span className="text-danger">{TEXT.certificateValidationFailed}. </span>
              <button
                type="button"
                className="sc-btn border-danger px-1.5 text-xs text-danger"
                onClick={e2ee.resetCertificates}
              >
                {TEXT.resetCertificates}
              </button>
            </span>
          ) : null}
        </Row>
        <Row term="CONNECTION" testId="details-privacy">
          {describePrivacy(privacy)}
        </Row>
        <Row term="FORWARD SECRECY" testId="details-pfs">
          {pfs.key ? (
            <>
              key {pfs.key.keyId}
              {pfs.exchangedAt !== null ? (
                <span className="text-muted">
                  {' '}
                  · confirmed {formatAge(now - pfs.exchangedAt)} ago · renews every{' '}
                  {PFS_KEY_ROTATION_MS / 60_000} min
                </span>
              ) : null}
            </>
          ) : pfs.status === 'failed' ? (
            <span className="text-danger">{TEXT.pfsKeyExchangeFailed}</span>
          ) : (
            <span className="text-warning">{TEXT.pfsNotInitialized}: exchanging a key...</span>
          )}
        </Row>
        <Row term="ZERO-KNOWLEDGE KEY" testId="details-zk">
          {status.zkFingerprint ? (
            <>
              ZK-AES-256 · check {status.zkFingerprint}
              <span className="text-muted" data-testid="details-zk-rotation">
                {status.isZkInRotation
                  ? ' · in the rotation: every member typed the access code'
                  : ' · skipped: a member entered without the access code (key file or reload) and could not read it'}
              </span>
            </>
          ) : (
            <span className="text-muted">none: no access code typed in this tab</span>
          )}
        </Row>
        <Row term="SENDER KEYS" testId="details-epoch">
          {status.epoch ? (
            <>
              epoch {status.epoch.senderKeyId}
              <span className="text-muted">
                {' '}
                · age {formatAge(now - status.epoch.createdAt)} · rotates every{' '}
                {PFS_KEY_ROTATION_MS / 60_000} min and when a member leaves
              </span>
            </>
          ) : (
            <span className="text-warning">{TEXT.waitingForKeyAgreement}...</span>
          )}
        </Row>
        <Row term="SIGNATURE KEY" testId="details-signature-key">
          {status.signingKeyCreatedAt !== null ? (
            <>
              ML-DSA-65 · age {formatAge(now - status.signingKeyCreatedAt)}
              <span className="text-muted">
                {' '}
                · rotates every {SIGNATURE_KEY_ROTATION_MS / 60_000} min
              </span>
            </>
          ) : (
            <span className="text-warning">{TEXT.signatureSystemNotInitialized}</span>
          )}
        </Row>
        <Row term="IDENTITY" testId="details-identity">
          {status.identityKeyId ? (
            <span className="text-primary">
              bundle signed with key {secureIdOf(status.identityKeyId)} (ML-DSA-65 + ECDSA)
            </span>
          ) : e2ee.isKeyFileMissing ? (
            <span className="text-warning">
              key file not loaded in this tab: others see you as unverified. Reload your key file
              with LOAD KEY FILE above the conversation.
            </span>
          ) : (
            <span className="text-muted">anonymous: your messages show as unverified</span>
          )}
        </Row>
        <Row term="AUTH" testId="details-authentication">
          {e2ee.authentication === 'AUTHENTICATED' ? 'AUTHENTICATED (premium key)' : 'PUBLIC'}
        </Row>
        {keyAuth ? (
          <>
            <Row term="KEY ID" testId="details-key-id">
              {keyAuth.keyId}
              <span className="text-muted"> · {secureIdOf(keyAuth.keyId)}</span>
            </Row>
            <Row term="SEC_LVL" testId="details-key-level">
              {keyAuth.level.toUpperCase()}
            </Row>
            <Row term="CAPABILITIES" testId="details-key-capabilities">
              {keyAuth.capabilities.length > 0 ? keyAuth.capabilities.join(', ') : 'none'}
            </Row>
          </>
        ) : null}
        <Row term="SESSION">
          {identity}
          {status.nodeId ? <span className="text-muted"> · node {status.nodeId}</span> : null}
        </Row>
        <Row term="RANDOMNESS">
          {status.hasServerEntropy ? 'browser + server entropy (HKDF)' : 'browser only'}
        </Row>
      </dl>
      <h3 className="mt-2 text-xs font-bold tracking-[0.2em] text-primary">MEMBERS</h3>
      {status.members.length === 0 ? (
        <p className="text-muted">No other member has announced keys.</p>
      ) : (
        <ul className="mt-1 space-y-0.5" data-testid="member-verification">
          {status.members.map((member) => (
            <li
              key={member.nodeId}
              className="flex flex-wrap gap-x-2"
              data-testid="member-trust"
              data-trust={member.trust}
            >
              <span className="text-fg">{member.username}</span>
              <span className={TRUST_CLASS[member.trust]}>{TRUST_TEXT[member.trust]}</span>
              {member.keyId && member.trust === 'verified' ? (
                <span className="text-muted">{secureIdOf(member.keyId)}</span>
              ) : null}
              {member.trustReason ? (
                <span className="text-muted">({member.trustReason})</span>
              ) : null}
              <span className="text-muted">
                · {member.hasSenderKey ? 'sender keys received' : 'waiting for sender keys'}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
