/**
 * What the Security Protocols dialog reports (spec 000 §2): PFS, quantum signatures, E2E
 * encryption, VPN detection, transport and the session. Honest about this build: a protocol that
 * is not running says PENDING or NOT ACTIVE. When a feature lands, compute its real state in
 * `useSecurityProtocols` and pass it in here; the dialog renders whatever this returns.
 */
import { KEY_SESSION_TTL_MS } from '../../../shared/constants.js';
import { type SessionUser } from '../../../shared/protocol/http/auth.js';

/** active = running now; pending = being built; inactive = off here; warning = running, weak. */
export type ProtocolState = 'active' | 'pending' | 'inactive' | 'warning';

export type ProtocolId = 'pfs' | 'quantum-signatures' | 'e2e' | 'vpn-detection' | 'transport';

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
}

const SESSION_HOURS = KEY_SESSION_TTL_MS / 3_600_000;

export function describeSecurityProtocols(inputs: SecurityInputs): SecurityProtocolsState {
  const { user } = inputs;
  const protocols: ProtocolStatus[] = [
    {
      id: 'pfs',
      name: 'Perfect forward secrecy',
      state: 'pending',
      detail:
        'PFS-ECDH (P-256) message keys with 30-minute rotation are being built; not active in this build.',
    },
    user
      ? {
          id: 'quantum-signatures',
          name: 'Quantum-resistant signatures',
          state: 'active',
          detail:
            'This session was opened by signing a login challenge with ML-DSA-65 (FIPS 204) and ECDSA P-256. Message signatures are pending.',
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
            'Browser-side encryption of room messages is being built; until then messages travel as PLAINTEXT, flagged in the chat.',
        },
    {
      id: 'vpn-detection',
      name: 'VPN detection',
      state: 'inactive',
      detail:
        'The connection privacy check (VPN, proxy, Tor, hosting) is not active in this build.',
    },
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

  return { protocols, session };
}
