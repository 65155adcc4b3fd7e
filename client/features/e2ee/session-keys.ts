/**
 * This browser's key pairs for one page session (docs/crypto-room.md §1): ECDH P-256 and RSA-OAEP
 * (inside WebCrypto, private halves non-extractable), ML-KEM-768, and the ML-DSA-65 key that signs
 * messages, replaced every SIGNATURE_KEY_ROTATION_MS (spec 000 §9). The public halves form the
 * member's key bundle (`shared/protocol/ws/e2ee.ts`); nothing private ever leaves this object.
 */
import { SIGNATURE_KEY_ROTATION_MS } from '../../../shared/constants.js';
import { bytesToBase64, type RandomBytesSource } from '../../../shared/crypto/bytes.js';
import { generateMlDsaKeyPair, ML_DSA_65_SEED_BYTES } from '../../../shared/crypto/ml-dsa.js';
import {
  exportRsaPublicKey,
  generateEcdhKeyPair,
  generateMlKemKeyPair,
  generateRsaOaepKeyPair,
  ML_KEM_768_SEED_BYTES,
  wipe,
  type EcdhKeyPair,
  type MlKemKeyPair,
  type RsaOaepKeyPair,
} from '../../../shared/crypto/room/index.js';
import { type KeyBundle } from '../../../shared/protocol/ws/e2ee.js';

/** The current message-signing key. */
export interface SigningKey {
  publicKey: Uint8Array;
  secretKey: Uint8Array;
  /** This browser's clock when it was made. */
  createdAt: number;
}

/** A bundle before any identity signature: what every member announces. */
export type UnsignedBundle = Omit<KeyBundle, 'identity'>;

export class SessionKeys {
  #signing: SigningKey;

  private constructor(
    readonly ecdh: EcdhKeyPair,
    readonly kem: MlKemKeyPair,
    readonly rsa: RsaOaepKeyPair,
    /** SPKI of `rsa.publicKey`, as the bundle carries it. */
    readonly rsaSpki: Uint8Array,
    signing: SigningKey,
  ) {
    this.#signing = signing;
  }

  /**
   * New key pairs. ML-KEM and ML-DSA are seeded from `random` (the entropy pool); ECDH and RSA
   * come from WebCrypto's own generator.
   */
  static async generate(random: RandomBytesSource, now: number): Promise<SessionKeys> {
    const [ecdh, rsa] = await Promise.all([generateEcdhKeyPair(), generateRsaOaepKeyPair()]);
    const kemSeed = random(ML_KEM_768_SEED_BYTES);
    const kem = generateMlKemKeyPair(kemSeed);
    wipe(kemSeed);
    const rsaSpki = await exportRsaPublicKey(rsa.publicKey);
    return new SessionKeys(ecdh, kem, rsa, rsaSpki, newSigningKey(random, now));
  }

  get signing(): SigningKey {
    return this.#signing;
  }

  /** True when the signing key has lived its SIGNATURE_KEY_ROTATION_MS. */
  isSigningKeyDue(now: number): boolean {
    return now - this.#signing.createdAt >= SIGNATURE_KEY_ROTATION_MS;
  }

  /** Replaces the signing key and wipes the old secret. Re-announce the bundle afterwards. */
  rotateSigningKey(random: RandomBytesSource, now: number): void {
    const old = this.#signing;
    this.#signing = newSigningKey(random, now);
    wipe(old.secretKey);
  }

  /** The public bundle, without identity. */
  unsignedBundle(): UnsignedBundle {
    return {
      v: 1,
      ecdh: bytesToBase64(this.ecdh.publicKey),
      kem: bytesToBase64(this.kem.publicKey),
      rsa: bytesToBase64(this.rsaSpki),
      sig: bytesToBase64(this.#signing.publicKey),
      createdAt: this.#signing.createdAt,
    };
  }
}

function newSigningKey(random: RandomBytesSource, now: number): SigningKey {
  const seed = random(ML_DSA_65_SEED_BYTES);
  const { publicKey, secretKey } = generateMlDsaKeyPair(seed);
  wipe(seed);
  return { publicKey, secretKey, createdAt: now };
}
