/**
 * Byte helpers shared by client and server. No `Buffer`: this file runs unchanged in the browser.
 *
 * On the wire (key files, HTTP bodies, WebSocket frames) a byte array travels as a JSON array of
 * integers 0..255 (DESIGN.md, "Wire formats the specs leave open"):
 *
 * ```
 * Uint8Array [0x00, 0x7f, 0xff]  <->  JSON [0, 127, 255]
 * ```
 */
/**
 * Lowercase hex of the given bytes. Here rather than in `shared/ids.ts` (which re-exports it):
 * the client's entry uses it, and the id schemas would bring zod with them (issue 22, target 5).
 */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** Character code → 6-bit value, 255 for a character outside the alphabet. */
const BASE64_VALUES = new Uint8Array(128).fill(255);
for (let index = 0; index < BASE64_ALPHABET.length; index++) {
  BASE64_VALUES[BASE64_ALPHABET.charCodeAt(index)] = index;
}

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Where fresh random bytes come from: `count` bytes per call. Production code passes nothing and
 * gets `randomBytes` of `shared/ids.ts` (`globalThis.crypto`); tests inject a seeded source so
 * that generated keys and fixtures are reproducible.
 */
export type RandomBytesSource = (count: number) => Uint8Array;

/** True when `value` is an integer in 0..255, i.e. one byte of the wire format. */
export function isByteValue(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 255;
}

/** The wire form of `bytes`: a plain array of numbers 0..255. */
export function bytesToNumbers(bytes: Uint8Array): number[] {
  return Array.from(bytes);
}

/**
 * Bytes from their wire form.
 * @throws RangeError when an entry is not an integer in 0..255 (never silently truncated).
 */
export function numbersToBytes(numbers: readonly number[]): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(numbers.length);
  numbers.forEach((value, index) => {
    if (!isByteValue(value)) throw new RangeError(`Byte ${index} is not an integer in 0..255`);
    bytes[index] = value;
  });
  return bytes;
}

/**
 * A copy of `bytes` backed by a plain `ArrayBuffer`. WebCrypto's `BufferSource` type (TS 5.9 DOM
 * lib) refuses views that might sit on a `SharedArrayBuffer`; a fresh copy always satisfies it.
 */
export function toArrayBufferBytes(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(bytes);
}

/**
 * Bytes from lowercase or uppercase hex.
 * @throws RangeError on an odd length or a non-hex character.
 */
export function hexToBytes(hex: string): Uint8Array<ArrayBuffer> {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) {
    throw new RangeError('Invalid hex string');
  }
  const bytes = new Uint8Array(hex.length / 2);
  for (let index = 0; index < bytes.length; index++) {
    bytes[index] = Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16);
  }
  return bytes;
}

/** Standard base64 with `=` padding (RFC 4648 §4). */
export function bytesToBase64(bytes: Uint8Array): string {
  let out = '';
  for (let index = 0; index < bytes.length; index += 3) {
    const first = bytes[index]!;
    const second = bytes[index + 1];
    const third = bytes[index + 2];
    const chunk = (first << 16) | ((second ?? 0) << 8) | (third ?? 0);
    out += BASE64_ALPHABET[(chunk >> 18) & 63]! + BASE64_ALPHABET[(chunk >> 12) & 63]!;
    out += second === undefined ? '=' : BASE64_ALPHABET[(chunk >> 6) & 63]!;
    out += third === undefined ? '=' : BASE64_ALPHABET[chunk & 63]!;
  }
  return out;
}

/**
 * Bytes from standard, padded base64 (RFC 4648 §4). Strict: no whitespace, no URL-safe alphabet,
 * no missing padding and no non-zero bits after the last byte, so each byte string has exactly
 * one accepted encoding.
 * @throws RangeError on any malformed input.
 */
export function base64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  const length = text.length;
  if (length % 4 !== 0) throw new RangeError('Invalid base64 length');
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const bytes = new Uint8Array((length / 4) * 3 - padding);
  let at = 0;
  for (let index = 0; index < length; index += 4) {
    let chunk = 0;
    for (let position = index; position < index + 4; position++) {
      // The padding counts as zero bits; any other character must be of the alphabet.
      const code = position < length - padding ? text.charCodeAt(position) : 65;
      const value = code < 128 ? BASE64_VALUES[code]! : 255;
      if (value === 255) throw new RangeError('Invalid base64 character');
      chunk = (chunk << 6) | value;
    }
    const keep = index + 4 === length ? 3 - padding : 3;
    if (keep < 3 && (chunk & (keep === 1 ? 0xffff : 0xff)) !== 0) {
      throw new RangeError('Invalid base64 padding bits');
    }
    bytes[at++] = chunk >> 16;
    if (keep > 1) bytes[at++] = (chunk >> 8) & 255;
    if (keep > 2) bytes[at++] = chunk & 255;
  }
  return bytes;
}

/** UTF-8 bytes of `text`. */
export function utf8Encode(text: string): Uint8Array<ArrayBuffer> {
  return utf8Encoder.encode(text);
}

/**
 * Text from UTF-8 bytes.
 * @throws TypeError on invalid UTF-8 (fatal decoding: no silent U+FFFD replacement).
 */
export function utf8Decode(bytes: Uint8Array): string {
  return utf8Decoder.decode(bytes);
}

/**
 * True when `left` and `right` hold the same bytes. The time taken depends only on the lengths,
 * never on where the first difference is, so it is safe for comparing secrets and MACs.
 */
export function constantTimeEqual(left: Uint8Array, right: Uint8Array): boolean {
  if (left.length !== right.length) return false;
  let difference = 0;
  for (let index = 0; index < left.length; index++) difference |= left[index]! ^ right[index]!;
  return difference === 0;
}

/** One byte array holding `parts` back to back: `parts[0] ‖ parts[1] ‖ …`. */
export function concatBytes(...parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
