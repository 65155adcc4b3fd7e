/**
 * Key-file cryptography: making a key file, checking its integrity, and signing and verifying
 * login challenges with it (DESIGN.md, "Wire formats the specs leave open" and "Login").
 * The schema and text form are in `key-file-schema.ts`.
 *
 * The self-signature covers the canonical JSON of the signed fields:
 *
 * ```
 * selfSignature = ML-DSA-65.Sign(dilithiumPrivateKey, UTF-8(canonicalJson(signed)))
 * signed        = { f: keyFile[f] for f in KEY_FILE_SIGNED_FIELDS }, absent `expires` as null
 * ```
 */
import { DEFAULT_KEY_VALIDITY_DAYS } from '../constants.js';
import { randomBytes } from '../ids.js';
import { TEXT } from '../protocol/errors.js';
import {
  encryptionKeySignedMessage,
  encryptionKeysMatch,
  generateEncryptionKeyPair,
  verifyEncryptionKey,
} from './dm/encryption-keys.js';
import {
  bytesToNumbers,
  constantTimeEqual,
  isByteValue,
  numbersToBytes,
  toHex,
  utf8Encode,
  type RandomBytesSource,
} from './bytes.js';
import { canonicalJson } from './canonical-json.js';
import { generateEcdsaKeyPair, isEcdsaPublicKey, signEcdsa, verifyEcdsa } from './ecdsa-p256.js';
import { computeKeyFingerprint, sha256Hex } from './fingerprint.js';
import { KeyFileError } from './key-file-error.js';
import {
  capabilitiesForLevel,
  KEY_FILE_VERSION,
  KeyUsernameSchema,
  type KeyFile,
  type KeyPermissionLevel,
  type KeyPublicPart,
} from './key-file-schema.js';
import {
  deriveMlDsaPublicKey,
  generateMlDsaKeyPair,
  ML_DSA_65_SEED_BYTES,
  signMlDsa,
  verifyMlDsa,
} from './ml-dsa.js';

/**
 * The fields the self-signature covers: every public field except `selfSignature` itself, that
 * is the whole {@link KeyPublicPart} minus the signature. The private keys are not signed: they
 * are optional, and a file stripped of them (the registered public part) must still verify.
 * `permissions` is signed as a whole object. A missing `expires` (top level or in
 * `permissions`) is signed as `null`, so "absent" and "null" are the same signed value.
 */
export const KEY_FILE_SIGNED_FIELDS = [
  'version',
  'keyId',
  'userId',
  'username',
  'created',
  'expires',
  'dilithiumPublicKey',
  'ecdsaPublicKey',
  'permissions',
  'fingerprint',
  'hardwareFingerprint',
  'timestamp',
] as const satisfies readonly (keyof KeyPublicPart)[];

const DAY_MS = 24 * 60 * 60 * 1000;
const INTEGRITY_TEST_MESSAGE = utf8Encode('SecureChannel key integrity check');

/**
 * The exact bytes the self-signature is computed over: UTF-8 of the canonical JSON of the
 * {@link KEY_FILE_SIGNED_FIELDS} of `keyFile`.
 */
export function keyFileSignedMessage(keyFile: Omit<KeyPublicPart, 'selfSignature'>): Uint8Array {
  const signed: Record<string, unknown> = {};
  for (const field of KEY_FILE_SIGNED_FIELDS) signed[field] = keyFile[field];
  signed.expires = keyFile.expires ?? null;
  signed.permissions = { ...keyFile.permissions, expires: keyFile.permissions.expires ?? null };
  return utf8Encode(canonicalJson(signed));
}

/** Input of {@link createKeyFile}. */
export interface CreateKeyFileOptions {
  /** Trimmed, then 1 to 64 characters. */
  username: string;
  /** Default `user`. */
  level?: KeyPermissionLevel;
  /** Days until expiry, at least 0; 0 means never. Default 365 (spec 000 §5, §9). */
  validityDays?: number;
  /** The creation time. Default: now. */
  now?: Date;
  /** Source of all randomness (keys, ids, signing). Default `globalThis.crypto`; tests seed it. */
  random?: RandomBytesSource;
}

/**
 * A new key file with fresh ML-DSA-65 and ECDSA P-256 key pairs, a new keyId and userId, the
 * level's capabilities, rooms `['all']`, fingerprint and self-signature. `created`,
 * `permissions.issued` and `timestamp` are `now`; `expires` is `now + validityDays` or null.
 * @throws KeyFileError `invalid-username` (text `TEXT.usernameRequired` when empty) or
 * `invalid-validity`.
 */
export async function createKeyFile(options: CreateKeyFileOptions): Promise<KeyFile> {
  const username = options.username.trim();
  if (username === '') throw new KeyFileError('invalid-username', TEXT.usernameRequired);
  if (!KeyUsernameSchema.safeParse(username).success) {
    throw new KeyFileError('invalid-username', 'Username must be 1 to 64 printable characters');
  }
  const level = options.level ?? 'user';
  const validityDays = options.validityDays ?? DEFAULT_KEY_VALIDITY_DAYS;
  const now = options.now ?? new Date();
  const expiresAt = new Date(now.getTime() + validityDays * DAY_MS);
  if (!(validityDays >= 0) || Number.isNaN(expiresAt.getTime())) {
    throw new KeyFileError('invalid-validity', 'Validity must be a number of days, at least 0');
  }
  const random = options.random ?? randomBytes;

  const dilithium = generateMlDsaKeyPair(random(ML_DSA_65_SEED_BYTES));
  const ecdsa = generateEcdsaKeyPair(random);
  const issued = now.toISOString();
  const expires = validityDays === 0 ? null : expiresAt.toISOString();
  const unsigned = {
    version: KEY_FILE_VERSION,
    keyId: `SCK${toHex(random(16))}`,
    userId: `USR${toHex(random(16))}`,
    username,
    created: issued,
    expires,
    dilithiumPublicKey: bytesToNumbers(dilithium.publicKey),
    ecdsaPublicKey: bytesToNumbers(ecdsa.publicKey),
    permissions: {
      level,
      rooms: ['all'],
      capabilities: capabilitiesForLevel(level),
      issued,
      expires,
    },
    fingerprint: computeKeyFingerprint(dilithium.publicKey, ecdsa.publicKey),
    hardwareFingerprint: sha256Hex(random(32)),
    timestamp: issued,
  } satisfies Omit<KeyPublicPart, 'selfSignature'>;
  const selfSignature = signMlDsa(keyFileSignedMessage(unsigned), dilithium.secretKey, {
    extraEntropy: random(32),
  });
  const encryption = generateEncryptionKeyPair(random);
  const encryptionKeySignature = signMlDsa(
    encryptionKeySignedMessage(unsigned.keyId, encryption.publicKey),
    dilithium.secretKey,
    { extraEntropy: random(32) },
  );
  return {
    ...unsigned,
    dilithiumPrivateKey: bytesToNumbers(dilithium.secretKey),
    ecdsaPrivateKey: bytesToNumbers(ecdsa.privateKey),
    selfSignature: bytesToNumbers(selfSignature),
    encryptionPublicKey: encryption.publicKey,
    encryptionPrivateKey: encryption.privateKey,
    encryptionKeySignature: bytesToNumbers(encryptionKeySignature),
  };
}

/** Which integrity check failed; for logs and tests, not for users. */
export type KeyIntegrityFailure =
  | 'malformed'
  | 'fingerprint'
  | 'ecdsa-public-key'
  | 'self-signature'
  | 'dilithium-private-key'
  | 'ecdsa-private-key'
  | 'encryption-key';

/** Result of {@link verifyKeyFileIntegrity}; `error` is the spec's text for every failure. */
export type KeyIntegrityResult =
  { ok: true } | { ok: false; reason: KeyIntegrityFailure; error: typeof TEXT.keyIntegrityFailed };

/**
 * Checks that a key file (or its public part) is whole: the fingerprint matches the public keys,
 * the ECDSA public key is a point on P-256, the self-signature verifies, and each private key
 * present belongs to its public key (ML-DSA: the public key is recomputed from it, then a test
 * message is signed and verified; ECDSA: a test message is signed and verified).
 * Never throws; every failure gives `TEXT.keyIntegrityFailed`.
 */
export async function verifyKeyFileIntegrity(keyFile: KeyFile): Promise<KeyIntegrityResult> {
  let reason: KeyIntegrityFailure | null;
  try {
    reason = await findIntegrityFailure(keyFile);
  } catch {
    reason = 'malformed';
  }
  return reason === null ? { ok: true } : { ok: false, reason, error: TEXT.keyIntegrityFailed };
}

async function findIntegrityFailure(keyFile: KeyFile): Promise<KeyIntegrityFailure | null> {
  const dilithiumPublicKey = numbersToBytes(keyFile.dilithiumPublicKey);
  const ecdsaPublicKey = numbersToBytes(keyFile.ecdsaPublicKey);
  const fingerprint = computeKeyFingerprint(dilithiumPublicKey, ecdsaPublicKey);
  if (fingerprint !== keyFile.fingerprint) return 'fingerprint';
  if (!isEcdsaPublicKey(ecdsaPublicKey)) return 'ecdsa-public-key';
  const selfSignature = numbersToBytes(keyFile.selfSignature);
  if (!verifyMlDsa(selfSignature, keyFileSignedMessage(keyFile), dilithiumPublicKey)) {
    return 'self-signature';
  }
  if (keyFile.encryptionPublicKey !== undefined || keyFile.encryptionKeySignature !== undefined) {
    if (keyFile.encryptionPublicKey === undefined || keyFile.encryptionKeySignature === undefined)
      return 'encryption-key';
    const signature = numbersToBytes(keyFile.encryptionKeySignature);
    if (
      !verifyEncryptionKey(
        keyFile.keyId,
        keyFile.encryptionPublicKey,
        signature,
        dilithiumPublicKey,
      )
    ) {
      return 'encryption-key';
    }
    if (
      keyFile.encryptionPrivateKey !== undefined &&
      !encryptionKeysMatch(keyFile.encryptionPublicKey, keyFile.encryptionPrivateKey)
    ) {
      return 'encryption-key';
    }
  } else if (keyFile.encryptionPrivateKey !== undefined) {
    return 'encryption-key';
  }
  if (keyFile.dilithiumPrivateKey !== undefined) {
    const secretKey = numbersToBytes(keyFile.dilithiumPrivateKey);
    const derived = deriveMlDsaPublicKey(secretKey);
    if (derived === null || !constantTimeEqual(derived, dilithiumPublicKey)) {
      return 'dilithium-private-key';
    }
    // The recomputed public key proves ρ, s1 and s2; a signature also exercises K, tr and t0.
    const probe = signMlDsa(INTEGRITY_TEST_MESSAGE, secretKey);
    if (!verifyMlDsa(probe, INTEGRITY_TEST_MESSAGE, dilithiumPublicKey)) {
      return 'dilithium-private-key';
    }
  }
  if (keyFile.ecdsaPrivateKey !== undefined) {
    let probe: Uint8Array;
    try {
      probe = await signEcdsa(INTEGRITY_TEST_MESSAGE, numbersToBytes(keyFile.ecdsaPrivateKey));
    } catch {
      return 'ecdsa-private-key';
    }
    if (!(await verifyEcdsa(probe, INTEGRITY_TEST_MESSAGE, ecdsaPublicKey))) {
      return 'ecdsa-private-key';
    }
  }
  return null;
}

/** The two login signatures of one challenge (DESIGN.md, "Login"). */
export interface ChallengeSignatures {
  /** ML-DSA-65, 3309 bytes. */
  dilithiumSignature: Uint8Array;
  /** ECDSA P-256/SHA-256, r ‖ s, 64 bytes. */
  ecdsaSignature: Uint8Array;
}

/**
 * Signs the UTF-8 bytes of `challenge` with both private keys of `keyFile`.
 * @throws KeyFileError `private-key-missing` when the file holds no private keys;
 * `integrity-failed` when a private key cannot be used.
 */
export async function signChallenge(
  keyFile: KeyFile,
  challenge: string,
): Promise<ChallengeSignatures> {
  if (keyFile.dilithiumPrivateKey === undefined || keyFile.ecdsaPrivateKey === undefined) {
    throw new KeyFileError('private-key-missing', 'This key file holds no private keys');
  }
  const message = utf8Encode(challenge);
  try {
    const dilithiumSignature = signMlDsa(message, numbersToBytes(keyFile.dilithiumPrivateKey));
    const ecdsaSignature = await signEcdsa(message, numbersToBytes(keyFile.ecdsaPrivateKey));
    return { dilithiumSignature, ecdsaSignature };
  } catch (error) {
    throw new KeyFileError('integrity-failed', TEXT.keyIntegrityFailed, { cause: error });
  }
}

/** Input of {@link verifyChallengeSignatures}; byte values as bytes or in their wire form. */
export interface ChallengeVerification {
  challenge: string;
  dilithiumSignature: Uint8Array | readonly number[];
  ecdsaSignature: Uint8Array | readonly number[];
  dilithiumPublicKey: Uint8Array | readonly number[];
  ecdsaPublicKey: Uint8Array | readonly number[];
}

/**
 * True only when both signatures are valid signatures of the UTF-8 bytes of `challenge` under
 * the given public keys. Never throws: malformed input of any kind gives `false`.
 */
export async function verifyChallengeSignatures(input: ChallengeVerification): Promise<boolean> {
  try {
    const dilithiumSignature = asBytes(input.dilithiumSignature);
    const ecdsaSignature = asBytes(input.ecdsaSignature);
    const dilithiumPublicKey = asBytes(input.dilithiumPublicKey);
    const ecdsaPublicKey = asBytes(input.ecdsaPublicKey);
    if (typeof input.challenge !== 'string') return false;
    if (!dilithiumSignature || !ecdsaSignature || !dilithiumPublicKey || !ecdsaPublicKey) {
      return false;
    }
    const message = utf8Encode(input.challenge);
    if (!verifyMlDsa(dilithiumSignature, message, dilithiumPublicKey)) return false;
    return await verifyEcdsa(ecdsaSignature, message, ecdsaPublicKey);
  } catch {
    return false;
  }
}

function asBytes(value: Uint8Array | readonly number[]): Uint8Array | null {
  if (value instanceof Uint8Array) return value;
  if (!Array.isArray(value) || !value.every(isByteValue)) return null;
  return numbersToBytes(value);
}
