/**
 * What the Security Protocols dialog reports (spec 000 §2): PFS, quantum signatures, E2E
 * encryption, member verification, certificate pinning, VPN detection, transport and the session.
 * Honest about this build: a protocol that is not running says PENDING or NOT ACTIVE. Inside a
 * chat room `useSecurityProtocols` passes the room's live encryption state (`e2ee`); the dialog
 * renders whatever this returns.
 */
import { TEXT } from '../../../shared/protocol/errors.js';
import { KEY_SESSION_TTL_MS } from '../../../shared/constants.js';
import { type SessionUser } from '../../../shared/protocol/http/auth.js';
import { describePrivacy, type PrivacyAssessment } from '../../lib/privacy/connection-privacy.js';

/** active = running now; pending = starting (not initialized yet); inactive = off here; warning = running, weak. */
export type ProtocolState = 'active' | 'pending' | 'inactive' | 'warning';

export type ProtocolId =
  | 'pfs'
  | 'quantum-signatures'
  | 'e2e'
  | 'member-verification'
  | 'certificate'
  | 'vpn-detection'
  | 'transport';

export interface ProtocolStatus {
  id: ProtocolId;
  name: string;
  state: ProtocolState;
  detail: string;
}

export interface SessionInfo {
  mode: 'key' | 'public';
  identity: string;
  /** The key's permission level, upper case, or PUBLIC. */
  level: string;
  /** The key's secure id (SCK_…), for key holders. */
  keySecureId: string | null;
  /** ISO time the key expires; null when it never does or there is no key. */
  keyExpires: string | null;
  /** What bounds the session, in words. */
  sessionExpiry: string;
  /** The status bar's security level label (MAXIMUM … BASIC), when the room reports one. */
  securityLabel?: string | null;
}

export interface SecurityProtocolsState {
  protocols: ProtocolStatus[];
  session: SessionInfo;
}

/** Labels of each state, as the dialog shows them. */
export const PROTOCOL_STATE_LABEL: Record<ProtocolState, string> = {
  active: 'ACTIVE',
  pending: 'PENDING',
  inactive: 'NOT ACTIVE',
  warning: 'WARNING',
};

export interface SecurityInputs {
  user: SessionUser | null;
  callsign: string;
  /** True when the page came over HTTPS (so the socket is WSS). */
  isSecureTransport: boolean;
  /** True when the page is served from a .onion host. */
  isOnion: boolean;
  /** The chat's cipher is end-to-end (MessageCipher.isEndToEnd); false while PLAINTEXT. */
  isEndToEnd: boolean;
  /** The room's live encryption state (client/features/e2ee); absent outside a chat room. */
  e2ee?: E2eeProtocolInputs | null;
  /** The connection privacy check (client/features/privacy); absent when not asked. */
  privacy?: PrivacyAssessment | null;
}

/** The VPN detection entry, from the connection privacy check. */
function describeVpnDetection(privacy: PrivacyAssessment | null | undefined): ProtocolStatus {
  const base = { id: 'vpn-detection', name: 'VPN detection' } as const;
  if (!privacy) {
    return { ...base, state: 'inactive', detail: 'The connection privacy check has not run.' };
  }
  const detail = `${describePrivacy(privacy)}. Looked up by this server, so neither a lookup key nor your address goes from the browser to a third party; refreshed every 5 minutes.`;
  if (privacy.status === 'CHECKING_CONNECTION') return { ...base, state: 'pending', detail };
  if (privacy.status === 'DETECTION_FAILED' || privacy.status === 'UNKNOWN_STATUS') {
    return { ...base, state: 'warning', detail };
  }
  return { ...base, state: 'active', detail };
}

/** What the room's end-to-end encryption reports, for the protocols it runs. */
export interface E2eeProtocolInputs {
  phase: 'initializing' | 'ready' | 'failed';
  /** The forward-secrecy key of the last confirmed PFS exchange. */
  pfsKeyId: string | null;
  pfsStatus: 'pending' | 'active' | 'failed';
  /** This browser's sender-key epoch. */
  epochId: string | null;
  /** Age of the current ML-DSA-65 message-signing key, in ms. */
  signingKeyAgeMs: number | null;
  /** The key file that signs this member's bundle, as a secure id. */
  identitySecureId: string | null;
  members: { verified: number; unverified: number; bad: number; total: number };
  /** The certificate status as the status bar words it, and whether it counts as ok. */
  certificateText: string;
  certificateState: 'ok' | 'checking' | 'failed' | 'none';
  securityLabel: string;
  /** The chat connection (absent: up). */
  connection?: 'connected' | 'connecting' | 'reconnecting' | 'disconnected';
}

const SESSION_HOURS = KEY_SESSION_TTL_MS / 3_600_000;

const CERTIFICATE_PROTOCOL_STATE: Record<E2eeProtocolInputs['certificateState'], ProtocolState> = {
  ok: 'active',
  checking: 'pending',
  failed: 'warning',
  none: 'inactive',
};

function minutesSeconds(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The protocols the room's encryption runs, from its live state. */
function describeE2eeProtocols(
  e2ee: E2eeProtocolInputs,
  user: SessionUser | null,
): ProtocolStatus[] {
  const pfs: ProtocolStatus = e2ee.pfsKeyId
    ? {
        id: 'pfs',
        name: 'Perfect forward secrecy',
        state: 'active',
        detail: `Forward-secrecy key ${e2ee.pfsKeyId} (ECDH P-256 exchange with key confirmation, renewed every 30 min). Room sender keys${e2ee.epochId ? ` (epoch ${e2ee.epochId})` : ''} rotate every 30 min and whenever a member leaves; replaced keys stay readable 10 min.`,
      }
    : {
        id: 'pfs',
        name: 'Perfect forward secrecy',
        state: e2ee.pfsStatus === 'failed' ? 'warning' : 'pending',
        detail:
          e2ee.pfsStatus === 'failed'
            ? 'PFS key exchange failed. Room sender keys still rotate every 30 min and when a member leaves.'
            : `${TEXT.pfsNotInitialized}: exchanging a forward-secrecy key with the relay...`,
      };
  const signatures: ProtocolStatus =
    e2ee.signingKeyAgeMs !== null
      ? {
          id: 'quantum-signatures',
          name: 'Quantum-resistant signatures',
          state: user && !e2ee.identitySecureId ? 'warning' : 'active',
          detail: `Every message is signed with an ML-DSA-65 (FIPS 204) session key, age ${minutesSeconds(e2ee.signingKeyAgeMs)}, replaced every 5 min. ${
            e2ee.identitySecureId
              ? `It is bound to your key ${e2ee.identitySecureId} by your signed key bundle: others see your messages as verified.`
              : user
                ? 'Your key file is not loaded in this tab, so the key is not bound to your identity: reload the key file.'
                : 'Anonymous session: others see your messages as unverified.'
          }`,
        }
      : {
          id: 'quantum-signatures',
          name: 'Quantum-resistant signatures',
          state: 'pending',
          detail: 'Signature system not initialized: generating the ML-DSA-65 session key...',
        };
  const isLinkDown = e2ee.connection === 'reconnecting' || e2ee.connection === 'disconnected';
  const e2e: ProtocolStatus =
    e2ee.phase === 'ready' && isLinkDown
      ? {
          id: 'e2e',
          name: 'End-to-end encryption',
          state: 'pending',
          detail:
            e2ee.connection === 'reconnecting'
              ? 'The connection is down and being restored: room keys are agreed again once it is back; messages typed meanwhile wait.'
              : 'The connection is down: nothing is sent or received until it is back.',
        }
      : e2ee.phase === 'ready'
        ? {
            id: 'e2e',
            name: 'End-to-end encryption',
            state: 'active',
            detail:
              'Room messages are encrypted in this browser before they leave it, rotating through PFS-ECDH, AES-256-GCM, AES-256-CBC, RSA-OAEP, ZK-AES-256 (only while every member typed the access code), E2EE-AES and quantum. The relay sees ciphertext only.',
          }
        : e2ee.phase === 'failed'
          ? {
              id: 'e2e',
              name: 'End-to-end encryption',
              state: 'warning',
              detail:
                'Key generation failed in this browser: messages fall back to PLAINTEXT, flagged in red.',
            }
          : {
              id: 'e2e',
              name: 'End-to-end encryption',
              state: 'pending',
              detail: 'Waiting for key agreement: generating session keys...',
            };
  const { members } = e2ee;
  const verification: ProtocolStatus =
    members.bad > 0
      ? {
          id: 'member-verification',
          name: 'Member verification',
          state: 'warning',
          detail: `KEY SUBSTITUTION DETECTED for ${members.bad} member(s): their keys are forged or substituted; no sender keys go to them. ${members.verified} verified, ${members.unverified} unverified of ${members.total}.`,
        }
      : {
          id: 'member-verification',
          name: 'Member verification',
          state: members.total === 0 ? 'inactive' : 'active',
          detail:
            members.total === 0
              ? 'No other member has announced keys yet.'
              : `${members.verified} verified (key holders, identity checked), ${members.unverified} unverified (anonymous) of ${members.total} member(s).`,
        };
  const certificate: ProtocolStatus = {
    id: 'certificate',
    name: 'Certificate pinning',
    state: CERTIFICATE_PROTOCOL_STATE[e2ee.certificateState],
    detail:
      e2ee.certificateState === 'failed'
        ? `${e2ee.certificateText}: Certificate validation failed - connection may be compromised.`
        : `Certificate status: ${e2ee.certificateText}. The fingerprint is pinned on first use per origin (trust on first use).`,
  };
  return [pfs, signatures, e2e, verification, certificate];
}

export function describeSecurityProtocols(inputs: SecurityInputs): SecurityProtocolsState {
  const { user } = inputs;
  const protocols: ProtocolStatus[] = [
    {
      id: 'pfs',
      name: 'Perfect forward secrecy',
      state: 'pending',
      detail: `${TEXT.pfsNotInitialized}: the forward-secrecy key (ECDH P-256, renewed every 30 min) is exchanged when a channel opens.`,
    },
    user
      ? {
          id: 'quantum-signatures',
          name: 'Quantum-resistant signatures',
          state: 'active',
          detail:
            'This session was opened by signing a login challenge with ML-DSA-65 (FIPS 204) and ECDSA P-256. Message signatures start when a channel opens.',
        }
      : {
          id: 'quantum-signatures',
          name: 'Quantum-resistant signatures',
          state: 'inactive',
          detail:
            'Public session: no signature key. Log in with a key file to sign with ML-DSA-65.',
        },
    inputs.isEndToEnd
      ? {
          id: 'e2e',
          name: 'End-to-end encryption',
          state: 'active',
          detail: 'Room messages are encrypted in this browser before they leave it.',
        }
      : {
          id: 'e2e',
          name: 'End-to-end encryption',
          state: 'pending',
          detail:
            'Not initialized: room keys are agreed in this browser when a channel opens. Until then messages wait in this browser.',
        },
    describeVpnDetection(inputs.privacy),
    inputs.isOnion
      ? {
          id: 'transport',
          name: 'Transport',
          state: 'active',
          detail: 'Connected through a Tor onion service.',
        }
      : inputs.isSecureTransport
        ? {
            id: 'transport',
            name: 'Transport',
            state: 'active',
            detail: 'TLS to the relay (HTTPS and WSS).',
          }
        : {
            id: 'transport',
            name: 'Transport',
            state: 'warning',
            detail: 'Plain HTTP: traffic to the relay is not encrypted in transit.',
          },
  ];

  const session: SessionInfo = user
    ? {
        mode: 'key',
        identity: user.username,
        level: user.permissions.level.toUpperCase(),
        keySecureId: user.secureId,
        keyExpires: user.expires,
        sessionExpiry: `${SESSION_HOURS} h after login, or when the key expires if sooner`,
      }
    : {
        mode: 'public',
        identity: inputs.callsign,
        level: 'PUBLIC',
        keySecureId: null,
        keyExpires: null,
        sessionExpiry: 'No server session: the callsign lives in this browser only',
      };

  if (!inputs.e2ee) return { protocols, session };
  const live = describeE2eeProtocols(inputs.e2ee, user);
  const rest = protocols.filter((protocol) => !live.some((item) => item.id === protocol.id));
  return {
    protocols: [...live, ...rest],
    session: { ...session, securityLabel: inputs.e2ee.securityLabel },
  };
}
