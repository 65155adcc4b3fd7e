/**
 * Glue to WebCrypto (`globalThis.crypto.subtle`), present in every browser and in Node 20, so the
 * room modules type-check both with the DOM lib (client) and with Node's types (server).
 */
import type { WebCryptoKey } from '../ecdsa-p256.js';

export type { WebCryptoKey };

/** WebCrypto's `SubtleCrypto`, named without the DOM lib. */
export type Subtle = typeof globalThis.crypto.subtle;

/** The platform's `SubtleCrypto`. */
export function subtle(): Subtle {
  return globalThis.crypto.subtle;
}

/**
 * `bytes` as a WebCrypto `BufferSource`. The TS 5.9 DOM lib refuses views that might sit on a
 * `SharedArrayBuffer`; a view on a plain `ArrayBuffer` is passed through without copying (so no
 * stray copy of a secret is left behind), anything else is copied.
 */
export function bufferSource(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  // Safe: the check right before the cast proves the backing store is a plain ArrayBuffer.
  if (bytes.buffer instanceof ArrayBuffer) return bytes as Uint8Array<ArrayBuffer>;
  return new Uint8Array(bytes);
}

/** True when `value` is a WebCrypto key rather than raw bytes. */
export function isWebCryptoKey(value: Uint8Array | WebCryptoKey): value is WebCryptoKey {
  return !(value instanceof Uint8Array);
}
