/**
 * Randomness for the long-lived secrets this browser draws itself (sender keys, their ids, the
 * ML-KEM-768 and ML-DSA-65 key seeds), with the server's entropy mixed in but never relied on
 * (spec 000 §7 `POST /api/key-exchange/entropy`, §8 "Key exchange"):
 *
 * ```
 * out = HKDF-SHA-256(IKM = local (max(32, n) bytes from crypto.getRandomValues) ‖ server (0 or 32),
 *                    salt = none, info = "securechannel/v1/browser/entropy-mix" ‖ u32be(counter), n)
 * ```
 *
 * HKDF is a randomness extractor: the output is at least as unpredictable as the local bytes
 * alone, so a server that lies (or knows its own entropy, as it always does) gains nothing, and a
 * weak local generator is helped by an honest server. When the call fails the pool uses local
 * randomness only and the log says so. WebCrypto key pairs (ECDH, RSA-OAEP) are generated inside
 * WebCrypto and cannot take a seed; they use the browser's generator alone.
 */
import { hkdf } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes, hexToBytes, utf8Encode } from '../../../shared/crypto/bytes.js';
import { uint32BigEndian, wipe } from '../../../shared/crypto/room/index.js';
import { randomBytes } from '../../../shared/ids.js';
import { EntropyResponseSchema } from '../../../shared/protocol/http/security.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import { ENTROPY_MIX_LABEL } from './e2ee-constants.js';

/** Bytes of server entropy asked for and mixed in. */
export const SERVER_ENTROPY_BYTES = 32;

/** Why the server's entropy is missing: its HTTP status, or null for a network failure. */
export class ServerEntropyError extends Error {
  constructor(readonly status: number | null) {
    super(`${TEXT.serverEntropyFailed} ${status ?? 'network error'}`);
    this.name = 'ServerEntropyError';
  }
}

/**
 * Asks the server for entropy. Only the request size is sent.
 * @throws ServerEntropyError with the spec's text on a non-ok answer or a network failure.
 */
export async function fetchServerEntropy(
  fetcher: typeof fetch = globalThis.fetch.bind(globalThis),
): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetcher('/api/key-exchange/entropy', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ requestEntropy: SERVER_ENTROPY_BYTES }),
    });
  } catch {
    throw new ServerEntropyError(null);
  }
  if (!response.ok) throw new ServerEntropyError(response.status);
  const parsed = EntropyResponseSchema.safeParse(await response.json().catch(() => null));
  if (!parsed.success || parsed.data.serverEntropy.length % 2 !== 0) {
    throw new ServerEntropyError(response.status);
  }
  return hexToBytes(parsed.data.serverEntropy);
}

/** Local randomness with the server's mixed in when there is some. */
export class EntropyPool {
  #server: Uint8Array | null = null;
  #counter = 0;

  constructor(private readonly local: (count: number) => Uint8Array = randomBytes) {}

  /** True when server entropy is being mixed in. */
  get hasServerEntropy(): boolean {
    return this.#server !== null;
  }

  /** Replaces the server entropy mixed into later draws (a copy is kept). */
  setServerEntropy(bytes: Uint8Array | null): void {
    wipe(this.#server);
    this.#server = bytes === null || bytes.length === 0 ? null : Uint8Array.from(bytes);
  }

  /** `count` random bytes (1 to 8160). Usable as a `RandomBytesSource`. */
  draw = (count: number): Uint8Array => {
    const local = this.local(Math.max(32, count));
    const ikm = this.#server ? concatBytes(local, this.#server) : Uint8Array.from(local);
    const info = concatBytes(utf8Encode(ENTROPY_MIX_LABEL), uint32BigEndian(this.#counter));
    this.#counter = (this.#counter + 1) >>> 0;
    try {
      return hkdf(sha256, ikm, undefined, info, count);
    } finally {
      wipe(local, ikm);
    }
  };
}
