/**
 * The body of `POST /api/auth/verify` with its signatures as bytes, and a scanner that reads the
 * common form of that body straight from its JSON text (issue 22, target 1).
 *
 * `JSON.parse` turns the 3,309 numbers of an ML-DSA-65 signature into a JavaScript array, the
 * schema walks it, and `numbersToBytes` copies it again: about a fifth of the server's own work per
 * login, and most of its garbage. The scanner writes the digits into a `Uint8Array` as it reads
 * them. It accepts only a strict subset of what `JSON.parse` + `VerifyRequestSchema` accept: plain
 * JSON whitespace, the five field names spelled out, each at most once, string values without
 * escapes or control characters, and bytes written as `0` or `1`–`255` without sign, fraction or
 * exponent. Anything else, valid or not, makes it answer null, and the caller then parses the text
 * the ordinary way, which decides and words the error. So it never accepts a body the schema
 * refuses, and what it yields equals what the schema yields, converted to bytes
 * (`tests/unit/shared/protocol/verify-body.test.ts` checks both, against the schema).
 */
import { ECDSA_P256_SIGNATURE_BYTES, ML_DSA_65_SIGNATURE_BYTES } from '../../constants.js';
import { numbersToBytes } from '../../crypto/bytes.js';
import { KeyIdSchema } from '../../ids.js';
import { VerifyRequestSchema, type VerifyRequest } from './auth.js';

/** `POST /api/auth/verify` body with the byte arrays as bytes. */
export interface VerifyRequestBytes {
  keyId: string;
  challenge: string;
  dilithiumSignature: Uint8Array<ArrayBuffer>;
  ecdsaSignature: Uint8Array<ArrayBuffer>;
  publicKey?: Uint8Array<ArrayBuffer>;
}

/** The most bytes `publicKey` may hold (VerifyRequestSchema). */
const PUBLIC_KEY_MAX_BYTES = 4096;
const CHALLENGE_MAX_CHARS = 200;

/** A parsed body's byte arrays as bytes. */
export function verifyRequestBytes(body: VerifyRequest): VerifyRequestBytes {
  return {
    keyId: body.keyId,
    challenge: body.challenge,
    dilithiumSignature: numbersToBytes(body.dilithiumSignature),
    ecdsaSignature: numbersToBytes(body.ecdsaSignature),
    ...(body.publicKey === undefined ? {} : { publicKey: numbersToBytes(body.publicKey) }),
  };
}

/** The verify body's schema, yielding bytes: the route's validation and its OpenAPI document. */
export const VerifyRequestBytesSchema = VerifyRequestSchema.transform(verifyRequestBytes);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;

/** Thrown inside the scanner when the text leaves the accepted form; never escapes it. */
class NotScannable extends Error {}
const notScannable = new NotScannable();

class Scanner {
  index = 0;
  constructor(private readonly text: string) {}

  /** Skips JSON whitespace (space, tab, line feed, carriage return). */
  skipSpace(): void {
    const text = this.text;
    let index = this.index;
    for (;;) {
      const code = text.charCodeAt(index);
      if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) break;
      index += 1;
    }
    this.index = index;
  }

  expect(code: number): void {
    this.skipSpace();
    if (this.text.charCodeAt(this.index) !== code) throw notScannable;
    this.index += 1;
  }

  /** A string without escapes or control characters. */
  string(): string {
    this.expect(QUOTE);
    const text = this.text;
    const start = this.index;
    let index = start;
    for (;;) {
      const code = text.charCodeAt(index);
      // NaN past the end fails `code >= 0x20` too.
      if (!(code >= 0x20) || code === BACKSLASH) throw notScannable;
      if (code === QUOTE) break;
      index += 1;
    }
    this.index = index + 1;
    return text.slice(start, index);
  }

  /**
   * An array of `0` or `1`–`255` into a fresh Uint8Array: exactly `length` of them when `exact`,
   * else at most `length`.
   */
  bytes(length: number, exact: boolean): Uint8Array<ArrayBuffer> {
    this.expect(OPEN_BRACKET);
    // The hot loop of a login body: everything local, whitespace skipped inline.
    const text = this.text;
    const out = new Uint8Array(length);
    let count = 0;
    let index = this.index;
    let code = text.charCodeAt(index);
    while (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) {
      index += 1;
      code = text.charCodeAt(index);
    }
    if (code === CLOSE_BRACKET) {
      index += 1;
    } else {
      for (;;) {
        if (!(code >= DIGIT_0 && code <= DIGIT_9)) throw notScannable;
        let value = code - DIGIT_0;
        index += 1;
        code = text.charCodeAt(index);
        // No leading zero (JSON has none), at most three digits.
        if (value !== 0 && code >= DIGIT_0 && code <= DIGIT_9) {
          value = value * 10 + (code - DIGIT_0);
          index += 1;
          code = text.charCodeAt(index);
          if (code >= DIGIT_0 && code <= DIGIT_9) {
            value = value * 10 + (code - DIGIT_0);
            index += 1;
            code = text.charCodeAt(index);
          }
        }
        if (value > 255 || count === length) throw notScannable;
        out[count] = value;
        count += 1;
        while (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) {
          index += 1;
          code = text.charCodeAt(index);
        }
        // A fraction, an exponent, a fourth digit or a digit after `0` fails here: only `,` or
        // `]` may follow.
        index += 1;
        if (code === CLOSE_BRACKET) break;
        if (code !== COMMA) throw notScannable;
        code = text.charCodeAt(index);
        while (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) {
          index += 1;
          code = text.charCodeAt(index);
        }
      }
    }
    this.index = index;
    if (count === length) return out;
    if (exact) throw notScannable;
    return out.slice(0, count);
  }

  atEnd(): boolean {
    this.skipSpace();
    return this.index === this.text.length;
  }

  peek(): number {
    this.skipSpace();
    return this.text.charCodeAt(this.index);
  }
}

/**
 * The verify body read from its JSON text, or null when the text is not in the scanner's form (see
 * the file's comment): parse it with `JSON.parse` and `VerifyRequestBytesSchema` then.
 */
export function scanVerifyRequest(text: string): VerifyRequestBytes | null {
  try {
    return scan(new Scanner(text));
  } catch (error) {
    if (error === notScannable) return null;
    throw error;
  }
}

function scan(scanner: Scanner): VerifyRequestBytes | null {
  let keyId: string | undefined;
  let challenge: string | undefined;
  let dilithiumSignature: Uint8Array<ArrayBuffer> | undefined;
  let ecdsaSignature: Uint8Array<ArrayBuffer> | undefined;
  let publicKey: Uint8Array<ArrayBuffer> | undefined;
  scanner.expect(OPEN_BRACE);
  if (scanner.peek() === CLOSE_BRACE) return null;
  for (;;) {
    const name = scanner.string();
    scanner.expect(COLON);
    // A repeated name goes to JSON.parse, whose last value wins.
    if (name === 'dilithiumSignature' && dilithiumSignature === undefined) {
      dilithiumSignature = scanner.bytes(ML_DSA_65_SIGNATURE_BYTES, true);
    } else if (name === 'ecdsaSignature' && ecdsaSignature === undefined) {
      ecdsaSignature = scanner.bytes(ECDSA_P256_SIGNATURE_BYTES, true);
    } else if (name === 'keyId' && keyId === undefined) {
      keyId = scanner.string();
    } else if (name === 'challenge' && challenge === undefined) {
      challenge = scanner.string();
    } else if (name === 'publicKey' && publicKey === undefined) {
      publicKey = scanner.bytes(PUBLIC_KEY_MAX_BYTES, false);
    } else {
      return null;
    }
    const next = scanner.peek();
    scanner.index += 1;
    if (next === CLOSE_BRACE) break;
    if (next !== COMMA) return null;
  }
  if (!scanner.atEnd()) return null;
  if (keyId === undefined || !KeyIdSchema.safeParse(keyId).success) return null;
  if (challenge === undefined || challenge.length < 1 || challenge.length > CHALLENGE_MAX_CHARS)
    return null;
  if (dilithiumSignature === undefined || ecdsaSignature === undefined) return null;
  return {
    keyId,
    challenge,
    dilithiumSignature,
    ecdsaSignature,
    ...(publicKey === undefined ? {} : { publicKey }),
  };
}
