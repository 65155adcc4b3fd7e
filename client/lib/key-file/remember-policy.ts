/** The remembered key's passphrase rule, without the sealed store's code (docs/crypto.md). */

/** Shortest passphrase accepted for a remembered key, in characters. */
export const REMEMBER_PASSPHRASE_MIN_LENGTH = 8;
