/**
 * Trust-on-first-use pinning of the server's TLS certificate (spec 000 §3 "Certificate info",
 * §4 "Certificate status", §8 "Certificate mismatch"). The browser asks `GET /api/certificate-info`
 * for the SHA-256 fingerprint, pins it per origin in localStorage `pinnedCertificates`, and compares
 * it on every later visit.
 *
 * What this can and cannot do: a page cannot read the TLS certificate it is talking over, so the
 * fingerprint is the server's own answer. Pinning catches a certificate that changes between
 * visits (a re-keyed server, a careless interception proxy); an attacker who rewrites the answer as
 * well is not caught. On localhost (127.0.0.1, ::1, localhost) the check is skipped, as the spec
 * says, and plain ws:// is fine.
 */
import { z } from 'zod';
import { FINGERPRINT_PATTERN } from '../../../shared/crypto/fingerprint.js';
import { type CertificateInfo } from '../../../shared/protocol/http/security.js';

/**
 * - checking: the answer is on its way;
 * - localhost: the check is skipped (shown "valid (localhost)");
 * - pinned: first use: this fingerprint was just pinned;
 * - valid: the fingerprint matches the pin;
 * - invalid: it does not (CERT_MISMATCH / CERT_FAIL);
 * - unavailable: no certificate to check (plain HTTP away from localhost) or no answer.
 */
export type CertificateStatus =
  'checking' | 'localhost' | 'pinned' | 'valid' | 'invalid' | 'unavailable';

export const PinnedCertificateSchema = z.object({
  origin: z.string().max(300),
  fingerprint: z.string().regex(FINGERPRINT_PATTERN),
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
  /** The pins to store afterwards (unchanged unless a first use was pinned). */
  pins: PinnedCertificate[];
  fingerprint: string | null;
}

/** Decides the status from the server's answer and the stored pins. Pure. */
export function evaluateCertificate(input: {
  origin: string;
  hostname: string;
  info: CertificateInfo | null;
  pins: readonly PinnedCertificate[];
  now: number;
}): CertificateVerdict {
  const pins = [...input.pins];
  if (isLocalhost(input.hostname)) return { status: 'localhost', pins, fingerprint: null };
  const fingerprint = input.info?.fingerprint ?? null;
  if (fingerprint === null) return { status: 'unavailable', pins, fingerprint: null };
  const pinned = pins.find((pin) => pin.origin === input.origin);
  if (!pinned) {
    pins.push({ origin: input.origin, fingerprint, pinnedAt: new Date(input.now).toISOString() });
    return { status: 'pinned', pins, fingerprint };
  }
  return { status: pinned.fingerprint === fingerprint ? 'valid' : 'invalid', pins, fingerprint };
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
