/**
 * The stored pins of trust-on-first-use pinning and the statuses of the check, without the
 * signature check itself (certificate-pinning.ts): the page reads its pins and gates requests
 * with these before the Ed25519 code has loaded, which the check fetches on demand.
 */
import { z } from 'zod';
import { FINGERPRINT_PATTERN } from '../../../shared/crypto/fingerprint-pattern.js';

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
