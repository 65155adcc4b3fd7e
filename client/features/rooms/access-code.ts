/**
 * Access codes never leave the browser in clear (spec 000 §5): they travel as the lowercase hex
 * SHA-256 of their UTF-8 bytes, computed here with WebCrypto. The code is hashed exactly as typed
 * (no trimming), both when a channel is created and in the access terminal, so the two agree.
 */

/** Lowercase hex SHA-256 of the UTF-8 bytes of `text`. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  let hex = '';
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** True when an access code may be submitted: non-empty after trimming (spec 000 §5). */
export function isAccessCodeFilled(code: string): boolean {
  return code.trim().length > 0;
}
