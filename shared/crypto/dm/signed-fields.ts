/**
 * The one canonical byte encoding of everything a direct-message signature or AAD covers
 * (docs/crypto.md, "Direct messages"): a domain label, then each field length-prefixed, so that
 * no two different field lists encode to the same bytes and no signature made for one purpose
 * verifies for another.
 *
 * ```
 * encoding = utf8(label) ‖ 0x00 ‖ field₁ ‖ field₂ ‖ …
 * field    = u32be(length) ‖ bytes          (strings as UTF-8, integers as u64be)
 * ```
 */
import { concatBytes, utf8Encode } from '../bytes.js';

/** One field: text (UTF-8), bytes as they are, or a non-negative safe integer (8 bytes, big-endian). */
export type SignedField = string | Uint8Array | number;

/** An unsigned 64-bit big-endian integer; throws RangeError for anything but a safe integer ≥ 0. */
export function u64be(value: number): Uint8Array {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new RangeError('Expected a safe integer ≥ 0');
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(value));
  return bytes;
}

function fieldBytes(field: SignedField): Uint8Array {
  if (typeof field === 'number') return u64be(field);
  return typeof field === 'string' ? utf8Encode(field) : field;
}

/** `label ‖ 0x00 ‖ (u32be(len) ‖ bytes)*`: the bytes a DM signature or AAD covers. */
export function encodeSignedFields(label: string, fields: readonly SignedField[]): Uint8Array {
  const parts: Uint8Array[] = [utf8Encode(label), new Uint8Array([0])];
  for (const field of fields) {
    const bytes = fieldBytes(field);
    const length = new Uint8Array(4);
    new DataView(length.buffer).setUint32(0, bytes.length);
    parts.push(length, bytes);
  }
  return concatBytes(...parts);
}
