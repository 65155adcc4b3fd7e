/**
 * A fingerprint: 64 lowercase hex digits. Apart from fingerprint.ts so that schemas can check the
 * format without loading SHA-256 (the client's first page loads no hashing code).
 */
export const FINGERPRINT_PATTERN = /^[0-9a-f]{64}$/;
