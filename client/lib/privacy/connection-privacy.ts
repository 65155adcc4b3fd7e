/**
 * What the connection privacy result means for the user (spec 000 §4 "Connection privacy"):
 * the security level is high over Tor, medium behind a VPN, proxy or hosting network, otherwise
 * low; the status text is one of the spec's eight.
 */
import {
  type ConnectionPrivacy,
  type PrivacyCheck,
} from '../../../shared/protocol/http/privacy.js';

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
    notChecked: [],
    checkedAt: new Date(now).toISOString(),
  };
}

const CHECK_NAMES: Record<PrivacyCheck, string> = {
  vpn: 'VPN',
  proxy: 'proxy',
  hosting: 'hosting',
  location: 'location',
  tor: 'Tor',
};

/**
 * Which parts of the check were not made, and why; null when everything was checked. Shown
 * instead of a bare UNKNOWN_STATUS (issue 37).
 */
export function describeNotChecked(result: ConnectionPrivacy): string | null {
  if (result.notChecked.length === 0) return null;
  const names = result.notChecked.map((check) => CHECK_NAMES[check]).join(', ');
  const why =
    result.source === 'not-configured'
      ? 'no lookup service on this server'
      : result.source === 'failed'
        ? 'the lookup service did not answer'
        : null;
  const tor = result.notChecked.includes('tor')
    ? null
    : result.source === 'not-configured' || result.source === 'failed'
      ? "Tor checked against tor's exit list"
      : null;
  return [`not checked: ${names}${why ? ` (${why})` : ''}`, tor]
    .filter((part): part is string => part !== null)
    .join(' · ');
}

/** Through whom the user appears to connect: the named service, or the network's operator. */
function describeThrough(result: ConnectionPrivacy): string | null {
  if (result.service) return result.service;
  const org = result.org !== 'Unknown' ? result.org : null;
  if (result.isVPN) return org ? `unknown VPN service (network ${org})` : 'unknown VPN service';
  return org;
}

/** One line for the details panel: where the user appears to be, through whom, what was not checked. */
export function describePrivacy(assessment: PrivacyAssessment): string {
  const { result } = assessment;
  if (!result) return assessment.status;
  const where = [result.location.city, result.location.country]
    .filter((part) => part !== 'Unknown')
    .join(', ');
  return [
    assessment.status,
    `level ${assessment.level.toUpperCase()}`,
    where || null,
    describeThrough(result),
    describeNotChecked(result),
  ]
    .filter((part): part is string => part !== null)
    .join(' · ');
}
