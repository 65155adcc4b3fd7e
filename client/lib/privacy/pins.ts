/**
 * The statuses of trust-on-first-use pinning, without the signature check (certificate-pinning.ts)
 * and without the stored pins' schema (pin-schema.ts): the page gates requests with these before
 * either has loaded; the check fetches both on demand, in parallel with its request, so that
 * neither the Ed25519 code nor zod is in the entry (issue 22, target 5).
 */
export type { PinnedCertificate } from './pin-schema.js';

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

/** True for the hosts where the spec skips the check. */
export function isLocalhost(hostname: string): boolean {
  return ['localhost', '127.0.0.1', '::1', '[::1]'].includes(hostname.toLowerCase());
}

/**
 * True when the check let the server through: skipped on localhost, or the identity matched (or
 * was pinned on first use). This gates the page's requests (server-trust.ts).
 */
export function isCertificateOk(status: CertificateStatus): boolean {
  return status === 'localhost' || status === 'pinned' || status === 'valid';
}

/** True when this page (and so its socket) came over TLS. */
export function isPageOverTls(): boolean {
  return typeof window !== 'undefined' && window.location.protocol === 'https:';
}

/**
 * True when the status counts as "certificate ok" for the protection level (spec 000 §4): the
 * check let the server through and there is a TLS certificate at all. Without TLS there is none
 * to be ok, whatever the identity check said.
 */
export function isCertificateVouched(status: CertificateStatus, isOverTls: boolean): boolean {
  return isOverTls && isCertificateOk(status);
}
