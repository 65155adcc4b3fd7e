// ML-DSA-65 verification for the server's login workers (issue 22, target 1): liboqs compiled to
// WebAssembly (`@oqs/liboqs-js`, FIPS 204 final, pure variant with an empty context, the same as
// shared/crypto/ml-dsa.ts) at about 0.12 ms a verification, against about 2 ms for the pure
// JavaScript `@noble/post-quantum`. The fast one is used when it loads and passes a self-test
// against a signature made by @noble; otherwise the workers fall back to @noble and say why.
// Plain JavaScript, like the worker that imports it, so it loads without a TypeScript loader.
import { TextEncoder } from 'node:util';
import { ml_dsa65 } from '@noble/post-quantum/ml-dsa.js';

export const ML_DSA_65_PUBLIC_KEY_BYTES = 1952;
export const ML_DSA_65_SIGNATURE_BYTES = 3309;

/** Names of the implementations, as logged and as the bench reports them. */
export const FAST_IMPLEMENTATION = 'liboqs-wasm';
export const FALLBACK_IMPLEMENTATION = 'noble-js';

const isBytes = (value, length) => value instanceof Uint8Array && value.length === length;

/** A plain Uint8Array view (liboqs-js refuses subclasses such as Buffer). */
const plain = (bytes) =>
  bytes.constructor === Uint8Array
    ? bytes
    : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * Wraps a raw verify call so that it never throws and refuses wrong lengths and non-bytes up
 * front, whichever library answers.
 */
function guarded(rawVerify) {
  return (signature, message, publicKey) => {
    if (!isBytes(signature, ML_DSA_65_SIGNATURE_BYTES)) return false;
    if (!isBytes(publicKey, ML_DSA_65_PUBLIC_KEY_BYTES)) return false;
    if (!(message instanceof Uint8Array)) return false;
    try {
      return rawVerify(plain(signature), plain(message), plain(publicKey)) === true;
    } catch {
      return false;
    }
  };
}

/** The reference: @noble/post-quantum, pure JavaScript. */
export function nobleMlDsaVerifier() {
  return {
    implementation: FALLBACK_IMPLEMENTATION,
    verify: guarded((signature, message, publicKey) =>
      ml_dsa65.verify(signature, message, publicKey),
    ),
  };
}

/** liboqs's ML-DSA-65 in WebAssembly. Rejects when the package or its module cannot load. */
export async function liboqsMlDsaVerifier(importLiboqs = () => import('@oqs/liboqs-js/sig')) {
  const { createMLDSA65 } = await importLiboqs();
  const instance = await createMLDSA65();
  return {
    implementation: FAST_IMPLEMENTATION,
    verify: guarded((signature, message, publicKey) =>
      instance.verify(message, signature, publicKey),
    ),
  };
}

/**
 * Checks that a verifier accepts a signature made by @noble and refuses it once altered, so that a
 * fast implementation that loads but answers wrongly (another parameter set, Dilithium round 3)
 * is never used.
 */
function selfTest(verifier) {
  const { publicKey, secretKey } = ml_dsa65.keygen(new Uint8Array(32).fill(0x5c));
  const message = new TextEncoder().encode('securechannel ML-DSA-65 self-test');
  const signature = ml_dsa65.sign(message, secretKey, { extraEntropy: false });
  if (!verifier.verify(signature, message, publicKey)) {
    throw new Error('self-test: a valid signature was refused');
  }
  const altered = signature.slice();
  altered[100] ^= 0x01;
  if (verifier.verify(altered, message, publicKey)) {
    throw new Error('self-test: an altered signature was accepted');
  }
}

/**
 * The verifier the workers use: liboqs when it loads and passes the self-test, else @noble.
 * `fallbackReason` says why the fast one is not used (null when it is).
 */
export async function loadMlDsaVerifier(loadFast = liboqsMlDsaVerifier) {
  try {
    const fast = await loadFast();
    selfTest(fast);
    return { ...fast, fallbackReason: null };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ...nobleMlDsaVerifier(), fallbackReason: reason };
  }
}
