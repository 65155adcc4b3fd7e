/**
 * What the connection privacy result means for the user (spec 000 §4 "Connection privacy"):
 * the security level is high over Tor, medium behind a VPN, proxy or hosting network, otherwise
 * low; the status text is one of the spec's eight.
 */
import { type ConnectionPrivacy } from '../../../shared/protocol/http/privacy.js';

/** The spec's status texts (spec 000 §4). */
export const PRIVACY_STATUS = {
  tor: 'TOR_DETECTED',
  vpn: 'VPN_DETECTED',
  proxy: 'PROXY_DETECTED',
  hosting: 'DATACENTER_IP',
  direct: 'DIRECT_CONNECTION',
  checking: 'CHECKING_CONNECTION',
  failed: 'DETECTION_FAILED',
  unknown: 'UNKNOWN_STATUS',
} as const;
export type PrivacyStatusText = (typeof PRIVACY_STATUS)[keyof typeof PRIVACY_STATUS];

export type PrivacyLevel = 'high' | 'medium' | 'low';

export interface PrivacyAssessment {
  level: PrivacyLevel;
  status: PrivacyStatusText;
  /** The result it came from; null while checking or after a failed request. */
  result: ConnectionPrivacy | null;
}

/** The security level of a result (spec 000 §4). */
export function privacyLevel(result: ConnectionPrivacy): PrivacyLevel {
  if (result.isTor) return 'high';
  if (result.isVPN || result.isProxy || result.isHosting) return 'medium';
  return 'low';
}

/** The status text of a result: the strongest finding wins. */
export function privacyStatusText(result: ConnectionPrivacy): PrivacyStatusText {
  if (result.isTor) return PRIVACY_STATUS.tor;
  if (result.isVPN) return PRIVACY_STATUS.vpn;
  if (result.isProxy) return PRIVACY_STATUS.proxy;
  if (result.isHosting) return PRIVACY_STATUS.hosting;
  if (result.source === 'failed') return PRIVACY_STATUS.failed;
  // Without a lookup service the server cannot tell a VPN from a direct connection.
  if (result.source === 'not-configured') return PRIVACY_STATUS.unknown;
  return PRIVACY_STATUS.direct;
}

/** The assessment while the check runs, after it answered, or after the request failed. */
export function assessPrivacy(
  state: { kind: 'checking' } | { kind: 'failed' } | { kind: 'done'; result: ConnectionPrivacy },
): PrivacyAssessment {
  if (state.kind === 'checking')
    return { level: 'low', status: PRIVACY_STATUS.checking, result: null };
  if (state.kind === 'failed') return { level: 'low', status: PRIVACY_STATUS.failed, result: null };
  return {
    level: privacyLevel(state.result),
    status: privacyStatusText(state.result),
    result: state.result,
  };
}

/** True for a page served from an onion host: Tor, without asking anyone (spec 000 §4). */
export function isOnionHost(hostname: string): boolean {
  return /\.onion$/i.test(hostname);
}

/** The result for an onion page, made in the browser. */
export function onionResult(now: number): ConnectionPrivacy {
  return {
    isVPN: false,
    isProxy: false,
    isTor: true,
    isHosting: false,
    service: null,
    location: { city: 'Unknown', country: 'Unknown' },
    org: 'Unknown',
    ip: 'Unknown',
    source: 'onion',
    checkedAt: new Date(now).toISOString(),
  };
}

/** One line for the details panel: where the user appears to be, and through whom. */
export function describePrivacy(assessment: PrivacyAssessment): string {
  const { result } = assessment;
  if (!result) return assessment.status;
  const where = [result.location.city, result.location.country]
    .filter((part) => part !== 'Unknown')
    .join(', ');
  const through = result.service ?? (result.org !== 'Unknown' ? result.org : null);
  const lookup = result.source === 'not-configured' ? 'lookup not configured on this server' : null;
  return [
    assessment.status,
    `level ${assessment.level.toUpperCase()}`,
    where || null,
    through,
    lookup,
  ]
    .filter((part): part is string => part !== null)
    .join(' · ');
}
