/** The stored pins of trust-on-first-use pinning: localStorage `pinnedCertificates`. */
import { z } from 'zod';
import { FINGERPRINT_PATTERN } from '../../../shared/crypto/fingerprint-pattern.js';

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
