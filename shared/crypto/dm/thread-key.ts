/**
 * Direct-message thread keys (docs/crypto.md, "Direct messages"). The creator's browser makes a
 * 32-byte thread key and wraps it to each participant's encryption key; the server stores only
 * the wrapped forms. Wrap (hybrid KEM-DEM):
 *
 * ```
 * (kemCt, ss1) = ML-KEM-768.Encaps(recipient.kem)
 * (ephPub, ss2) = X25519(ephemeral, recipient.x25519)
 * KEK = HKDF-SHA-256(ikm = ss1 ‖ ss2, salt = SHA-256("securechannel/v1/dm"),
 *                    info = "securechannel/v1/dm/thread-key" ‖ recipientKeyId ‖ 0x00 ‖ creatorKeyId
 *                           ‖ 0x00 ‖ SHA-256(kemCt) ‖ ephPub, 32)
 * sealed = AES-256-GCM(KEK, iv (12 random bytes), threadKey, aad = canonical JSON of the header)
 * envelope = base64(canonical JSON {v:1, to, from, kem: b64(kemCt), eph: b64(ephPub), iv, ct})
 * ```
 *
 * Which key is in the envelope is vouched for by the creator's signed thread grant
 * (thread-grant.ts); messages are sealed in message-seal.ts.
 */
import { x25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { z } from 'zod';
import { AES_GCM_IV_BYTES } from '../../constants.js';
import { randomBytes } from '../../ids.js';
import {
  base64ToBytes,
  bytesToBase64,
  concatBytes,
  numbersToBytes,
  utf8Decode,
  utf8Encode,
} from '../bytes.js';
import { canonicalJson } from '../canonical-json.js';
import { aesGcmDecrypt, aesGcmEncrypt } from '../room/aes-gcm.js';
import { hkdf, wipe } from '../room/kdf.js';
import { decapsulateMlKem, encapsulateMlKem } from '../room/ml-kem.js';
import { DecryptError } from '../room/room-crypto-error.js';
import type { EncryptionPrivateKey, EncryptionPublicKey } from './encryption-keys.js';

export const THREAD_KEY_BYTES = 32;
const LABEL = 'securechannel/v1/dm/thread-key';
const SALT = sha256(utf8Encode('securechannel/v1/dm'));

const b64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/);
export const ThreadKeyEnvelopeSchema = z.strictObject({
  v: z.literal(1),
  to: z.string().max(40),
  from: z.string().max(40),
  kem: b64.max(1500),
  eph: b64.max(60),
  iv: b64.max(24),
  ct: b64.max(100),
});
export type ThreadKeyEnvelope = z.infer<typeof ThreadKeyEnvelopeSchema>;

export function generateThreadKey(): Uint8Array {
  return randomBytes(THREAD_KEY_BYTES);
}

function kekFor(
  ss1: Uint8Array,
  ss2: Uint8Array,
  to: string,
  from: string,
  kemCt: Uint8Array,
  ephPub: Uint8Array,
) {
  const info = concatBytes(
    utf8Encode(LABEL),
    utf8Encode(to),
    new Uint8Array([0]),
    utf8Encode(from),
    new Uint8Array([0]),
    sha256(kemCt),
    ephPub,
  );
  const ikm = concatBytes(ss1, ss2);
  const kek = hkdf(ikm, SALT, info, 32);
  wipe(ikm);
  return kek;
}

const headerOf = (to: string, from: string) =>
  utf8Encode(canonicalJson({ v: 1, to, from, kind: 'dm-thread-key' }));

/** Wraps `threadKey` for the key holder `recipientKeyId`; returns the base64 envelope. */
export async function wrapThreadKey(
  threadKey: Uint8Array,
  recipient: { keyId: string; publicKey: EncryptionPublicKey },
  creatorKeyId: string,
): Promise<string> {
  const { cipherText, sharedSecret } = encapsulateMlKem(numbersToBytes(recipient.publicKey.kem));
  const ephemeral = randomBytes(32);
  const ephPub = x25519.getPublicKey(ephemeral);
  const ss2 = x25519.getSharedSecret(ephemeral, numbersToBytes(recipient.publicKey.x25519));
  const kek = kekFor(sharedSecret, ss2, recipient.keyId, creatorKeyId, cipherText, ephPub);
  wipe(sharedSecret);
  wipe(ss2);
  wipe(ephemeral);
  const iv = randomBytes(AES_GCM_IV_BYTES);
  const sealed = await aesGcmEncrypt(kek, iv, threadKey, headerOf(recipient.keyId, creatorKeyId));
  wipe(kek);
  const envelope: ThreadKeyEnvelope = {
    v: 1,
    to: recipient.keyId,
    from: creatorKeyId,
    kem: bytesToBase64(cipherText),
    eph: bytesToBase64(ephPub),
    iv: bytesToBase64(iv),
    ct: bytesToBase64(sealed),
  };
  return bytesToBase64(utf8Encode(canonicalJson(envelope)));
}

/** Parses an envelope string; throws DecryptError('MALFORMED') for anything else. */
export function parseThreadKeyEnvelope(text: string): ThreadKeyEnvelope {
  try {
    return ThreadKeyEnvelopeSchema.parse(JSON.parse(utf8Decode(base64ToBytes(text))));
  } catch (error) {
    throw new DecryptError('MALFORMED', { cause: error });
  }
}

/** Unwraps a thread key addressed to `myKeyId`; throws DecryptError on any mismatch or tamper. */
export async function unwrapThreadKey(
  text: string,
  myKeyId: string,
  privateKey: EncryptionPrivateKey,
): Promise<Uint8Array> {
  const envelope = parseThreadKeyEnvelope(text);
  if (envelope.to !== myKeyId) throw new DecryptError('NOT_A_RECIPIENT');
  const kemCt = base64ToBytes(envelope.kem);
  const ephPub = base64ToBytes(envelope.eph);
  const ss1 = decapsulateMlKem(kemCt, numbersToBytes(privateKey.kem));
  if (!ss1) throw new DecryptError('MALFORMED');
  let ss2: Uint8Array;
  try {
    ss2 = x25519.getSharedSecret(numbersToBytes(privateKey.x25519), ephPub);
  } catch (error) {
    throw new DecryptError('MALFORMED', { cause: error });
  }
  const kek = kekFor(ss1, ss2, envelope.to, envelope.from, kemCt, ephPub);
  wipe(ss1);
  wipe(ss2);
  try {
    return await aesGcmDecrypt(
      kek,
      base64ToBytes(envelope.iv),
      base64ToBytes(envelope.ct),
      headerOf(envelope.to, envelope.from),
    );
  } finally {
    wipe(kek);
  }
}
