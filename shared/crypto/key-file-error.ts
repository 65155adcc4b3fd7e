/**
 * The typed error of key-file handling. Its `message` is always a text a user may see (the
 * spec's where one exists) and never contains key material or the file's content.
 */

/**
 * Why a key-file operation failed.
 * - `invalid-json`: the text is not JSON (spec text `TEXT.invalidKeyJson`).
 * - `missing-fields`: JSON, but `keyId`, `username` or `permissions` is missing
 *   (`TEXT.invalidKeyFields`).
 * - `parse-failed`: any other departure from the schema, or a file too large (`TEXT.keyParseFailed`).
 * - `integrity-failed`: fingerprint, self-signature or private keys do not match
 *   (`TEXT.keyIntegrityFailed`).
 * - `invalid-username`, `invalid-validity`: bad input to key creation.
 * - `private-key-missing`: signing was asked of a file that holds only public keys.
 */
export type KeyFileErrorCode =
  | 'invalid-json'
  | 'missing-fields'
  | 'parse-failed'
  | 'integrity-failed'
  | 'invalid-username'
  | 'invalid-validity'
  | 'private-key-missing';

/** A key-file failure with its {@link KeyFileErrorCode}; `cause` keeps the underlying error. */
export class KeyFileError extends Error {
  /** What went wrong, for code to branch on; `message` is for people. */
  readonly code: KeyFileErrorCode;

  constructor(code: KeyFileErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'KeyFileError';
    this.code = code;
  }
}
