/**
 * The byte format of one encoded audio frame after the call's end-to-end frame encryption
 * (docs/crypto-room.md "Voice"), applied by an encoded transform before the frame is packetised:
 *
 * ```
 * clear (encryption toggled off):  0x00 ‖ opus frame
 * sealed:                          v ‖ iv (12 bytes) ‖ AES-256-GCM(key_v, iv, opus frame, aad = v)
 *                                  v = the sender's frame-key version, 1..255 (wraps 255 → 1)
 * ```
 *
 * Each sender has its own frame key per call; the version byte lets a receiver keep the previous
 * key for a few seconds after a rotation, while frames under it are still in flight.
 */
import { aesGcmDecrypt, aesGcmEncrypt, GCM_IV_BYTES, GCM_TAG_BYTES } from '../room/aes-gcm.js';
import { type WebCryptoKey } from '../room/webcrypto.js';

export const CLEAR_FRAME_VERSION = 0;
export const MAX_FRAME_KEY_VERSION = 255;

/** The version after `version`: 1..255, wrapping to 1 (0 marks a clear frame). */
export function nextFrameKeyVersion(version: number): number {
  return version >= MAX_FRAME_KEY_VERSION ? 1 : version + 1;
}

export async function sealVoiceFrame(
  key: WebCryptoKey,
  version: number,
  frame: Uint8Array,
  random: (count: number) => Uint8Array = (count) =>
    globalThis.crypto.getRandomValues(new Uint8Array(count)),
): Promise<Uint8Array> {
  if (!Number.isInteger(version) || version < 1 || version > MAX_FRAME_KEY_VERSION)
    throw new RangeError('A frame key version is 1..255');
  const header = Uint8Array.of(version);
  const iv = random(GCM_IV_BYTES);
  const sealed = await aesGcmEncrypt(key, iv, frame, header);
  const out = new Uint8Array(1 + GCM_IV_BYTES + sealed.length);
  out[0] = version;
  out.set(iv, 1);
  out.set(sealed, 1 + GCM_IV_BYTES);
  return out;
}

export function clearVoiceFrame(frame: Uint8Array): Uint8Array {
  const out = new Uint8Array(frame.length + 1);
  out[0] = CLEAR_FRAME_VERSION;
  out.set(frame, 1);
  return out;
}

export type OpenedVoiceFrame =
  | { status: 'sealed'; version: number; frame: Uint8Array }
  | { status: 'clear'; frame: Uint8Array }
  /** No key of that version from this sender: dropped. */
  | { status: 'no-key'; version: number }
  /** Too short, or the tag did not verify: dropped. */
  | { status: 'failed' };

/** Opens a frame; `keyFor` gives the sender's key of a version, or null. Never throws. */
export async function openVoiceFrame(
  data: Uint8Array,
  keyFor: (version: number) => WebCryptoKey | null,
): Promise<OpenedVoiceFrame> {
  if (data.length < 1) return { status: 'failed' };
  const version = data[0]!;
  if (version === CLEAR_FRAME_VERSION) return { status: 'clear', frame: data.subarray(1) };
  if (data.length < 1 + GCM_IV_BYTES + GCM_TAG_BYTES) return { status: 'failed' };
  const key = keyFor(version);
  if (!key) return { status: 'no-key', version };
  try {
    const frame = await aesGcmDecrypt(
      key,
      data.subarray(1, 1 + GCM_IV_BYTES),
      data.subarray(1 + GCM_IV_BYTES),
      Uint8Array.of(version),
    );
    return { status: 'sealed', version, frame };
  } catch {
    return { status: 'failed' };
  }
}
