/**
 * Trust-on-first-use pinning of the server (spec 000 §3 "Certificate info", §4 "Certificate
 * status", §8 "Certificate mismatch"; DESIGN.md "Server identity"). The browser sends a fresh
 * challenge to `GET /api/certificate-info`, checks the server identity key's Ed25519 signature over
 * it (and, for an identity fingerprint, that the fingerprint is the key's), then pins the
 * fingerprint and the identity key per origin in localStorage `pinnedCertificates`, and compares
 * both on every later visit.
 *
 * What this can and cannot do: a page cannot read the TLS certificate it is talking over, so the
 * TLS fingerprint is the server's own answer; the identity signature proves that whoever answers
 * holds the pinned identity key. A server (or a relay in front) that changes its identity between
 * visits is caught; one that was already someone else's on the first visit is not (trust on first
 * use). On localhost the check is skipped, as the spec says.
 */
import { z } from 'zod';
import { FINGERPRINT_PATTERN } from '../../../shared/crypto/fingerprint.js';
import {
  serverIdentityFingerprint,
  verifyCertificateChallenge,
} from '../../../shared/crypto/server-identity.js';
import { hexToBytes } from '../../../shared/crypto/bytes.js';
import { type CertificateInfo } from '../../../shared/protocol/http/privacy.js';

/**
 * - checking: the answer is on its way;
 * - localhost: the check is skipped (shown "valid (localhost)");
 * - pinned: first use: this fingerprint and identity were just pinned;
 * - valid: both match their pins;
 * - invalid: they do not, or the signature is wrong (CERT_MISMATCH / CERT_FAIL);
 * - unavailable: no answer could be had: nothing is trusted until a check succeeds.
 */
export type CertificateStatus =
  'checking' | 'localhost' | 'pinned' | 'valid' | 'invalid' | 'unavailable';

export const PinnedCertificateSchema = z.object({
  origin: z.string().max(300),
  fingerprint: z.string().regex(FINGERPRINT_PATTERN),
  /** The server identity key (hex); absent in pins written before identities existed. */
  identityKey: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  pinnedAt: z.iso.datetime(),
});
export type PinnedCertificate = z.infer<typeof PinnedCertificateSchema>;

/** The stored list; anything malformed counts as no pins. */
export const PinnedCertificatesSchema = z.array(PinnedCertificateSchema).max(100);

/** True for the hosts where the spec skips the check. */
export function isLocalhost(hostname: string): boolean {
  return ['localhost', '127.0.0.1', '::1', '[::1]'].includes(hostname.toLowerCase());
}

/** True when the status counts as "certificate ok" for the security level. */
export function isCertificateOk(status: CertificateStatus): boolean {
  return status === 'localhost' || status === 'pinned' || status === 'valid';
}

export interface CertificateVerdict {
  status: CertificateStatus;
  /** The pins to store afterwards (unchanged unless a first use was pinned or a pin upgraded). */
  pins: PinnedCertificate[];
  fingerprint: string | null;
}

/** True when the answer proves possession of its identity key for this challenge. */
export function isAnswerAuthentic(info: CertificateInfo, challenge: string): boolean {
  if (info.challenge !== challenge || info.signature === undefined) return false;
  if (info.source === 'identity') {
    if (serverIdentityFingerprint(hexToBytes(info.identityKey)) !== info.fingerprint) return false;
  }
  return verifyCertificateChallenge({
    challenge,
    fingerprint: info.fingerprint,
    identityKey: info.identityKey,
    signature: info.signature,
  });
}

/** Decides the status from the server's answer, the challenge sent and the stored pins. Pure. */
export function evaluateCertificate(input: {
  origin: string;
  hostname: string;
  info: CertificateInfo | null;
  challenge: string;
  pins: readonly PinnedCertificate[];
  now: number;
}): CertificateVerdict {
  const pins = [...input.pins];
  if (isLocalhost(input.hostname)) return { status: 'localhost', pins, fingerprint: null };
  const { info } = input;
  if (info === null) return { status: 'unavailable', pins, fingerprint: null };
  const { fingerprint, identityKey } = info;
  if (!isAnswerAuthentic(info, input.challenge)) return { status: 'invalid', pins, fingerprint };
  const index = pins.findIndex((pin) => pin.origin === input.origin);
  const pinned = pins[index];
  if (!pinned) {
    pins.push({
      origin: input.origin,
      fingerprint,
      identityKey,
      pinnedAt: new Date(input.now).toISOString(),
    });
    return { status: 'pinned', pins, fingerprint };
  }
  if (pinned.fingerprint !== fingerprint) return { status: 'invalid', pins, fingerprint };
  if (pinned.identityKey === undefined) {
    // A pin from before server identities: the fingerprint matched, so add the identity to it.
    pins[index] = { ...pinned, identityKey };
    return { status: 'valid', pins, fingerprint };
  }
  return { status: pinned.identityKey === identityKey ? 'valid' : 'invalid', pins, fingerprint };
}

/** Reads the pins from a stored text; null or garbage gives none. */
export function parsePins(raw: string | null): PinnedCertificate[] {
  if (raw === null) return [];
  try {
    const parsed = PinnedCertificatesSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}
