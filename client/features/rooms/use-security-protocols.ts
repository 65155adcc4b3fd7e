/**
 * The live inputs of the Security Protocols dialog: auth state, callsign, the page's origin and,
 * inside a chat room, the room's end-to-end encryption state (PFS key, signature key age, member
 * verification, certificate status) from the room's RoomE2eeContext.
 */
import { useAuth } from '../../lib/session/use-auth.js';
import { isCertificateVouched, isPageOverTls } from '../../lib/privacy/pins.js';
import {
  useRoomE2eeContext,
  secureIdOf,
  certificateText,
  countTrust,
  type RoomE2ee,
} from '../e2ee/index.js';
import { useNow } from '../../lib/use-now.js';
import { useCallsign } from '../identity/index.js';
import { useConnectionPrivacy } from '../../lib/privacy/use-connection-privacy.js';
import {
  describeSecurityProtocols,
  type E2eeProtocolInputs,
  type SecurityProtocolsState,
} from './security-protocols.js';

function e2eeInputs(e2ee: RoomE2ee, now: number): E2eeProtocolInputs {
  const { status, transport } = e2ee;
  const counts = countTrust(status.members);
  const certificate = transport.certificate;
  return {
    phase: status.phase,
    pfsKeyId: transport.pfs.key?.keyId ?? null,
    pfsStatus: transport.pfs.status,
    epochId: status.epoch?.senderKeyId ?? null,
    signingKeyAgeMs: status.signingKeyCreatedAt === null ? null : now - status.signingKeyCreatedAt,
    identitySecureId: status.identityKeyId ? secureIdOf(status.identityKeyId) : null,
    members: {
      verified: counts.verified,
      unverified: counts.unverified + counts.checking,
      bad: counts.bad,
      total: status.members.length,
    },
    certificateText: certificateText(certificate, isPageOverTls()),
    certificateState: isCertificateVouched(certificate, isPageOverTls())
      ? 'ok'
      : certificate === 'invalid'
        ? 'failed'
        : certificate === 'checking'
          ? 'checking'
          : 'none',
    securityLabel: e2ee.level,
    connection: e2ee.connection,
  };
}

export function useSecurityProtocols(
  options: { isEndToEnd?: boolean } = {},
): SecurityProtocolsState {
  const { user } = useAuth();
  const { callsign } = useCallsign();
  const e2ee = useRoomE2eeContext();
  const now = useNow(1000, e2ee !== null);
  const privacy = useConnectionPrivacy();
  return describeSecurityProtocols({
    privacy,
    user,
    callsign,
    isSecureTransport: window.location.protocol === 'https:',
    isOnion: window.location.hostname.endsWith('.onion'),
    isEndToEnd: options.isEndToEnd ?? e2ee?.status.phase === 'ready',
    e2ee: e2ee ? e2eeInputs(e2ee, now) : null,
  });
}
