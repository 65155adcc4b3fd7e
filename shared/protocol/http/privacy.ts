/**
 * HTTP schemas of connection privacy and server identity (spec 000 §3 "Connection privacy
 * result", "Certificate info"; §7 `GET /api/certificate-info`; DESIGN.md "Connection privacy",
 * "Server identity").
 */
import { z } from 'zod';

/** A hex string of exactly `bytes` bytes, lowercase. */
const hexOf = (bytes: number) => z.string().regex(new RegExp(`^[0-9a-f]{${bytes * 2}}$`));

/**
 * `GET /api/certificate-info` query. `challenge` is a fresh random nonce from the browser
 * (16 to 64 bytes as lowercase hex); with it the answer carries the identity key's signature over
 * the nonce, so the browser checks possession of the key, not only a string.
 */
export const CertificateInfoQuerySchema = z.strictObject({
  challenge: z
    .string()
    .regex(/^[0-9a-f]{32,128}$/, 'challenge must be 16 to 64 bytes of lowercase hex')
    .refine((value) => value.length % 2 === 0, 'challenge must be whole bytes')
    .optional(),
});
export type CertificateInfoQuery = z.infer<typeof CertificateInfoQuerySchema>;

/**
 * `GET /api/certificate-info` answer.
 * - `fingerprint`: SHA-256 (hex) of the TLS certificate's DER when `source` is `tls` (the server
 *   terminates TLS, or `TLS_CERT` names the certificate a proxy in front serves), otherwise of the
 *   server identity public key. Never null: there is always something to pin.
 * - `identityKey`: the server's long-term Ed25519 public key (32 bytes, hex), the same on every
 *   process of one service.
 * - `challenge`, `signature`: present when a challenge was asked; Ed25519 (RFC 8032) over
 *   `certificateInfoSignedBytes` (shared/crypto/server-identity.ts).
 */
export const CertificateInfoSchema = z.strictObject({
  fingerprint: hexOf(32),
  source: z.enum(['tls', 'identity']),
  tls: z.boolean(),
  identityKey: hexOf(32),
  challenge: z
    .string()
    .regex(/^[0-9a-f]{32,128}$/)
    .optional(),
  signature: hexOf(64).optional(),
});
export type CertificateInfo = z.infer<typeof CertificateInfoSchema>;

/**
 * Where a privacy answer came from:
 * - `lookup`: the configured IP-information service answered;
 * - `onion`: the request came over an onion host: Tor, without a lookup;
 * - `local`: a loopback or private address: nothing to look up (a direct connection);
 * - `not-configured`: no `PRIVACY_LOOKUP_URL`; only what the server knows (onion host, tor's exit
 *   list);
 * - `failed`: the lookup failed or timed out (spec 000 §8: no VPN, proxy, Tor or hosting; location,
 *   org and ip Unknown).
 */
export const PrivacySourceSchema = z.enum(['lookup', 'onion', 'local', 'not-configured', 'failed']);
export type PrivacySource = z.infer<typeof PrivacySourceSchema>;

/**
 * The parts of the check that could not be made for this answer, so the screen says which
 * instead of a bare UNKNOWN: `vpn`, `proxy`, `hosting` and `location` need the lookup service
 * (not configured, or it failed); `tor` needs the lookup or tor's exit list (neither available).
 */
export const PrivacyCheckSchema = z.enum(['vpn', 'proxy', 'hosting', 'location', 'tor']);
export type PrivacyCheck = z.infer<typeof PrivacyCheckSchema>;

/** `GET /api/privacy/check` answer: the connection privacy result of spec 000 §3. */
export const ConnectionPrivacySchema = z.strictObject({
  isVPN: z.boolean(),
  isProxy: z.boolean(),
  isTor: z.boolean(),
  isHosting: z.boolean(),
  /** The VPN or proxy service's name when the lookup names it (ipinfo); else null. */
  service: z.string().max(200).nullable(),
  location: z.strictObject({ city: z.string().max(200), country: z.string().max(200) }),
  org: z.string().max(200),
  /** The caller's own address as the server resolved it, or `Unknown`. */
  ip: z.string().max(64),
  source: PrivacySourceSchema,
  notChecked: z.array(PrivacyCheckSchema).max(5),
  checkedAt: z.iso.datetime(),
});
export type ConnectionPrivacy = z.infer<typeof ConnectionPrivacySchema>;
