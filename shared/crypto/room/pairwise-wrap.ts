/**
 * Pairwise wrap: hands a secret of at most 1 KiB (a sender key) from member A to member B over
 * the blind relay. Two variants, both ending in AES-256-GCM (SP 800-38D) under a key-encryption
 * key from HKDF-SHA-256 (RFC 5869):
 *
 * ```
 * classic:  Z   = ECDH-P256(A.priv, B.pub)                              32 bytes, SP 800-56A
 *           KEK = HKDF(IKM = Z, salt = SHA-256(roomId),
 *                      info = "securechannel/v1/pairwise-wrap/classic" ‖ from ‖ 00 ‖ to ‖ 00, 32)
 *
 * hybrid:   Z   = ECDH-P256(A.priv, B.pub)                              32 bytes
 *           (kemCt, K) = ML-KEM-768.Encaps(B.kemPub)                    1088 + 32 bytes, FIPS 203
 *           KEK = HKDF(IKM = Z ‖ K, salt = SHA-256(roomId),
 *                      info = "securechannel/v1/pairwise-wrap/hybrid" ‖ from ‖ 00 ‖ to ‖ 00
 *                             ‖ SHA-256(kemCt), 32)
 *
 * both:     ct  = AES-256-GCM(KEK, iv = 12 random bytes, payload, AAD = header)   (+16-byte tag)
 * ```
 *
 * The hybrid KEK stays secret while either ECDH or ML-KEM-768 holds (a "concatenate then KDF"
 * combiner, as in SP 800-56C rev. 2 §2); hashing kemCt into `info` binds the key to this exact
 * ciphertext. Static-static ECDH authenticates the sender implicitly: only A or B can compute Z.
 * The envelope format and AAD are in pairwise-envelope.ts.
 */
import { randomBytes } from '../../ids.js';
import { type RandomBytesSource, utf8Encode, bytesToBase64 } from '../bytes.js';
import { aesGcmDecrypt, aesGcmEncrypt, GCM_IV_BYTES } from './aes-gcm.js';
import { deriveEcdhSecret, type EcdhPrivateKey } from './ecdh-p256.js';
import { hkdf, KDF_LABELS, labelInfo, sha256Bytes, wipe } from './kdf.js';
import { decapsulateMlKem, encapsulateMlKem, ML_KEM_768_CIPHERTEXT_BYTES } from './ml-kem.js';
import {
  MAX_PAIRWISE_PAYLOAD_BYTES,
  PAIRWISE_ENVELOPE_VERSION,
  pairwiseHeaderAad,
  type PairwiseEnvelope,
  type PairwiseKind,
} from './pairwise-envelope.js';
import { DecryptError, EncryptError, RoomCryptoError } from './room-crypto-error.js';
import { assertIdentifier, decodeBase64Field, NodeIdSchema, RoomIdSchema } from './room-wire.js';

/** Who hands a secret to whom, and in which room. */
export interface PairwiseParties {
  roomId: string;
  /** The sender's node id (A). */
  fromNodeId: string;
  /** The recipient's node id (B). */
  toNodeId: string;
}

/** Input of {@link wrapClassic}. */
export interface WrapClassicInput extends PairwiseParties {
  /** The secret: 1 to 1024 bytes. */
  payload: Uint8Array;
  /** A's ECDH P-256 private key. */
  senderPrivateKey: EcdhPrivateKey;
  /** B's ECDH P-256 public key: the raw 65-byte point. */
  recipientPublicKey: Uint8Array;
  /** Source of the IV (and of m for the hybrid variant); tests inject a seeded one. */
  random?: RandomBytesSource;
}

/** Input of {@link wrapHybrid}: the classic input plus B's ML-KEM-768 public key. */
export interface WrapHybridInput extends WrapClassicInput {
  /** 1184 bytes. */
  recipientKemPublicKey: Uint8Array;
}

/** Input of {@link unwrapClassic}: B's view. */
export interface UnwrapClassicInput extends PairwiseParties {
  envelope: PairwiseEnvelope;
  /** B's ECDH P-256 private key. */
  recipientPrivateKey: EcdhPrivateKey;
  /** A's ECDH P-256 public key, raw 65-byte point, as B knows it for `fromNodeId`. */
  senderPublicKey: Uint8Array;
}

/** Input of {@link unwrapHybrid}: the classic input plus B's ML-KEM-768 secret key. */
export interface UnwrapHybridInput extends UnwrapClassicInput {
  /** 2400 bytes. */
  recipientKemSecretKey: Uint8Array;
}

const LABELS: Record<
  PairwiseKind,
  typeof KDF_LABELS.pairwiseClassic | typeof KDF_LABELS.pairwiseHybrid
> = { classic: KDF_LABELS.pairwiseClassic, hybrid: KDF_LABELS.pairwiseHybrid };

function checkParties(parties: PairwiseParties): void {
  assertIdentifier(RoomIdSchema, parties.roomId, 'room id');
  assertIdentifier(NodeIdSchema, parties.fromNodeId, 'sender node id');
  assertIdentifier(NodeIdSchema, parties.toNodeId, 'recipient node id');
}

/** The 32-byte KEK of the diagram above; the caller wipes `ikm` and the result. */
function deriveKek(
  kind: PairwiseKind,
  ikm: Uint8Array,
  parties: PairwiseParties,
  kemCiphertext: Uint8Array | null,
): Uint8Array {
  const separator = Uint8Array.of(0);
  const info = labelInfo(
    LABELS[kind],
    utf8Encode(parties.fromNodeId),
    separator,
    utf8Encode(parties.toNodeId),
    separator,
    ...(kemCiphertext === null ? [] : [sha256Bytes(kemCiphertext)]),
  );
  return hkdf(ikm, sha256Bytes(utf8Encode(parties.roomId)), info, 32);
}

async function seal(
  kind: PairwiseKind,
  input: WrapClassicInput,
  ikm: Uint8Array,
  kemCiphertext: Uint8Array | null,
): Promise<PairwiseEnvelope> {
  const { fromNodeId: from, toNodeId: to, roomId } = input;
  const kek = deriveKek(kind, ikm, input, kemCiphertext);
  wipe(ikm);
  const iv = (input.random ?? randomBytes)(GCM_IV_BYTES);
  const aad = pairwiseHeaderAad({ kind, from, to, roomId });
  const sealed = await aesGcmEncrypt(kek, iv, input.payload, aad).finally(() => wipe(kek));
  const common = { v: PAIRWISE_ENVELOPE_VERSION, from, to, roomId } as const;
  const body = { iv: bytesToBase64(iv), ct: bytesToBase64(sealed) };
  return kemCiphertext === null
    ? { ...common, kind: 'classic', ...body }
    : { ...common, kind: 'hybrid', ...body, kem: bytesToBase64(kemCiphertext) };
}

function checkPayload(payload: Uint8Array): void {
  if (payload.length < 1 || payload.length > MAX_PAIRWISE_PAYLOAD_BYTES) {
    throw new EncryptError('TOO_LARGE');
  }
}

/**
 * Wraps `payload` for `toNodeId` with ECDH P-256 alone (classical security only).
 * @throws EncryptError `INVALID_KEY` on a bad key, `TOO_LARGE` for an empty or > 1 KiB payload;
 * RangeError on malformed ids.
 */
export async function wrapClassic(input: WrapClassicInput): Promise<PairwiseEnvelope> {
  checkParties(input);
  checkPayload(input.payload);
  const ecdhSecret = await deriveEcdhSecret(input.senderPrivateKey, input.recipientPublicKey);
  return seal('classic', input, ecdhSecret, null);
}

/**
 * Wraps `payload` for `toNodeId` with ECDH P-256 and ML-KEM-768 (secret while either holds).
 * @throws as {@link wrapClassic}; `INVALID_KEY` also for a bad ML-KEM-768 public key.
 */
export async function wrapHybrid(input: WrapHybridInput): Promise<PairwiseEnvelope> {
  checkParties(input);
  checkPayload(input.payload);
  const ecdhSecret = await deriveEcdhSecret(input.senderPrivateKey, input.recipientPublicKey);
  const { cipherText, sharedSecret } = encapsulateMlKem(input.recipientKemPublicKey, input.random);
  const ikm = new Uint8Array(ecdhSecret.length + sharedSecret.length);
  ikm.set(ecdhSecret);
  ikm.set(sharedSecret, ecdhSecret.length);
  wipe(ecdhSecret, sharedSecret);
  return seal('hybrid', input, ikm, cipherText);
}

/** Header checks shared by both unwraps; returns the envelope's IV and sealed bytes. */
function openHeader(kind: PairwiseKind, input: UnwrapClassicInput) {
  const { envelope } = input;
  checkParties(input);
  if (envelope.kind !== kind || envelope.v !== PAIRWISE_ENVELOPE_VERSION) {
    throw new DecryptError('MALFORMED');
  }
  if (envelope.to !== input.toNodeId) throw new DecryptError('NOT_A_RECIPIENT');
  // A header naming another room or sender is refused before any key is derived.
  if (envelope.roomId !== input.roomId || envelope.from !== input.fromNodeId) {
    throw new DecryptError('AUTH_FAILED');
  }
  return {
    iv: decodeBase64Field(envelope.iv, GCM_IV_BYTES),
    sealed: decodeBase64Field(envelope.ct),
  };
}

async function ecdhForUnwrap(input: UnwrapClassicInput): Promise<Uint8Array> {
  try {
    return await deriveEcdhSecret(input.recipientPrivateKey, input.senderPublicKey);
  } catch (error) {
    if (error instanceof RoomCryptoError) throw new DecryptError('AUTH_FAILED', { cause: error });
    throw error;
  }
}

async function open(
  kind: PairwiseKind,
  input: UnwrapClassicInput,
  ikm: Uint8Array,
  kemCiphertext: Uint8Array | null,
  iv: Uint8Array,
  sealed: Uint8Array,
): Promise<Uint8Array> {
  const kek = deriveKek(kind, ikm, input, kemCiphertext);
  wipe(ikm);
  const aad = pairwiseHeaderAad({
    kind,
    from: input.fromNodeId,
    to: input.toNodeId,
    roomId: input.roomId,
  });
  return aesGcmDecrypt(kek, iv, sealed, aad).finally(() => wipe(kek));
}

/**
 * B unwraps a classic envelope.
 * @throws DecryptError `MALFORMED` (wrong kind or encoding), `NOT_A_RECIPIENT` (`to` is not B),
 * `AUTH_FAILED` (another room or sender, wrong keys, tampering).
 */
export async function unwrapClassic(input: UnwrapClassicInput): Promise<Uint8Array> {
  const { iv, sealed } = openHeader('classic', input);
  return open('classic', input, await ecdhForUnwrap(input), null, iv, sealed);
}

/**
 * B unwraps a hybrid envelope.
 * @throws as {@link unwrapClassic}.
 */
export async function unwrapHybrid(input: UnwrapHybridInput): Promise<Uint8Array> {
  const { iv, sealed } = openHeader('hybrid', input);
  if (input.envelope.kind !== 'hybrid') throw new DecryptError('MALFORMED');
  const kemCiphertext = decodeBase64Field(input.envelope.kem, ML_KEM_768_CIPHERTEXT_BYTES);
  const ecdhSecret = await ecdhForUnwrap(input);
  const kemSecret = decapsulateMlKem(kemCiphertext, input.recipientKemSecretKey);
  if (kemSecret === null) {
    wipe(ecdhSecret);
    throw new DecryptError('AUTH_FAILED');
  }
  const ikm = new Uint8Array(ecdhSecret.length + kemSecret.length);
  ikm.set(ecdhSecret);
  ikm.set(kemSecret, ecdhSecret.length);
  wipe(ecdhSecret, kemSecret);
  return open('hybrid', input, ikm, kemCiphertext, iv, sealed);
}
