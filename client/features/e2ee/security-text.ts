/**
 * The words the security indicators use for each state, in one place so the status bar, the
 * details panel and the Security Protocols modal say the same thing.
 */
import { TEXT } from '../../../shared/protocol/errors.js';
import { type CertificateStatus } from '../../lib/privacy/pins.js';
import type { MemberTrust } from './room-members.js';

/**
 * The certificate status as the status bar, the details panel and the Security Protocols modal
 * show it (spec 000 §4 "Certificate status"), over TLS.
 */
const CERTIFICATE_TEXT_TLS: Record<CertificateStatus, string> = {
  checking: 'CHECKING',
  localhost: 'NOT CHECKED (LOCALHOST)',
  pinned: 'PINNED (FIRST USE)',
  valid: 'VALID',
  invalid: TEXT.certFail,
  unavailable: `${TEXT.certFail} (NO ANSWER)`,
};

/**
 * Without TLS there is no certificate to be valid: what was checked is the server's identity key
 * (certificate-pinning.ts), and the text says so rather than "VALID".
 */
const CERTIFICATE_TEXT_NO_TLS: Record<CertificateStatus, string> = {
  checking: 'CHECKING',
  localhost: 'NO TLS (LOCALHOST)',
  pinned: 'NO TLS · IDENTITY PINNED (FIRST USE)',
  valid: 'NO TLS · IDENTITY MATCHES PIN',
  invalid: TEXT.certFail,
  unavailable: `${TEXT.certFail} (NO ANSWER)`,
};

/** The certificate status in words, honest about a page that did not come over TLS. */
export function certificateText(status: CertificateStatus, isOverTls: boolean): string {
  return (isOverTls ? CERTIFICATE_TEXT_TLS : CERTIFICATE_TEXT_NO_TLS)[status];
}

/** A member's trust as the details panel shows it. */
export const TRUST_TEXT: Record<MemberTrust, string> = {
  checking: 'CHECKING',
  verified: 'VERIFIED',
  unverified: 'UNVERIFIED',
  bad: TEXT.keySubstitutionDetected,
};

/** `m:ss` of a duration in ms (never negative). */
export function formatAge(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

/** How many members are in each trust state. */
export function countTrust(
  members: readonly { trust: MemberTrust }[],
): Record<MemberTrust, number> {
  const counts: Record<MemberTrust, number> = { checking: 0, verified: 0, unverified: 0, bad: 0 };
  for (const member of members) counts[member.trust] += 1;
  return counts;
}

/** The locked room's warning before sender keys go to members whose keys are not verified. */
export function unverifiedReadersText(names: readonly string[]): string {
  const who =
    names.length <= 3 ? names.join(', ') : `${names.slice(0, 3).join(', ')} +${names.length - 3}`;
  return `UNVERIFIED IN THIS LOCKED CHANNEL: ${who}. ${names.length === 1 ? 'This member holds' : 'These members hold'} your keys and can read what you send from now on, but no registered key vouches for them.`;
}
