/**
 * The room's ZK-AES-256 key in this browser (docs/crypto-room.md §7): derived from the access code
 * typed in this tab, never stored, and shown only by a short check value ("zero-knowledge key
 * info (keyFingerprint)", spec 000 §3 "Security state"):
 *
 * ```
 * keyFingerprint = first 16 hex digits of SHA-256( AES-256-GCM(zkKey, iv = 0¹², empty text,
 *                                                  AAD = "securechannel/v1/zk-key-check") )
 * ```
 *
 * The value lets two members compare keys without revealing them; it is shown on screen only.
 */
import { sha256Hex } from '../../../shared/crypto/fingerprint.js';
import { utf8Encode } from '../../../shared/crypto/bytes.js';
import {
  aesGcmEncrypt,
  deriveZkKey,
  GCM_IV_BYTES,
  type WebCryptoKey,
} from '../../../shared/crypto/room/index.js';

export interface RoomZkKey {
  key: WebCryptoKey;
  fingerprint: string;
}

/** The key check value of a ZK key (see above). */
export async function zkKeyFingerprint(key: WebCryptoKey): Promise<string> {
  const tag = await aesGcmEncrypt(
    key,
    new Uint8Array(GCM_IV_BYTES),
    new Uint8Array(0),
    utf8Encode('securechannel/v1/zk-key-check'),
  );
  return sha256Hex(tag).slice(0, 16);
}

/** The room's ZK key from the typed access code, with its check value. */
export async function deriveRoomZkKey(accessCode: string, secureId: string): Promise<RoomZkKey> {
  const key = await deriveZkKey(accessCode, secureId);
  return { key, fingerprint: await zkKeyFingerprint(key) };
}
