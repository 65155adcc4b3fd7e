/** Types of ml-dsa-verifier.mjs (plain JavaScript so that the verify worker loads it as is). */
export declare const ML_DSA_65_PUBLIC_KEY_BYTES: 1952;
export declare const ML_DSA_65_SIGNATURE_BYTES: 3309;
export declare const FAST_IMPLEMENTATION: 'liboqs-wasm';
export declare const FALLBACK_IMPLEMENTATION: 'noble-js';

export type MlDsaImplementation = typeof FAST_IMPLEMENTATION | typeof FALLBACK_IMPLEMENTATION;

export interface MlDsaVerifier {
  implementation: MlDsaImplementation;
  /** True only for a valid signature; never throws. */
  verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean;
}

export interface LoadedMlDsaVerifier extends MlDsaVerifier {
  /** Why the fast implementation is not in use, or null when it is. */
  fallbackReason: string | null;
}

export declare function nobleMlDsaVerifier(): MlDsaVerifier;
export declare function liboqsMlDsaVerifier(
  importLiboqs?: () => Promise<{
    createMLDSA65(): Promise<{
      verify(message: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): boolean;
    }>;
  }>,
): Promise<MlDsaVerifier>;
export declare function loadMlDsaVerifier(
  loadFast?: () => Promise<MlDsaVerifier>,
): Promise<LoadedMlDsaVerifier>;
