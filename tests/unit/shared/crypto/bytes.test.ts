import { describe, expect, it } from 'vitest';
import {
  base64ToBytes,
  bytesToBase64,
  bytesToNumbers,
  concatBytes,
  constantTimeEqual,
  hexToBytes,
  numbersToBytes,
  toHex,
  utf8Decode,
  utf8Encode,
} from '../../../../shared/crypto/bytes.js';

// Node's Buffer is the reference implementation here; shared/ itself never uses it.
const sampleBytes = (length: number) =>
  Uint8Array.from({ length }, (_, index) => (index * 89 + 7) % 256);

describe('wire form of byte arrays', () => {
  it('turns bytes into plain numbers and back unchanged', () => {
    const bytes = Uint8Array.of(0, 1, 127, 128, 255);
    const numbers = bytesToNumbers(bytes);
    expect(numbers).toEqual([0, 1, 127, 128, 255]);
    expect(Array.isArray(numbers)).toBe(true);
    expect(numbersToBytes(numbers)).toEqual(bytes);
  });

  it.each([[[256]], [[-1]], [[1.5]], [[Number.NaN]]])(
    'refuses %j instead of truncating it to a byte',
    (numbers) => {
      expect(() => numbersToBytes(numbers)).toThrow(RangeError);
    },
  );
});

describe('base64', () => {
  it('encodes every length like the RFC 4648 reference and decodes back', () => {
    for (let length = 0; length <= 40; length++) {
      const bytes = sampleBytes(length);
      const encoded = bytesToBase64(bytes);
      expect(encoded).toBe(Buffer.from(bytes).toString('base64'));
      expect(base64ToBytes(encoded)).toEqual(bytes);
    }
  });

  it('matches the RFC 4648 §10 test vectors', () => {
    const vectors = {
      '': '',
      f: 'Zg==',
      fo: 'Zm8=',
      foo: 'Zm9v',
      foob: 'Zm9vYg==',
      fooba: 'Zm9vYmE=',
    };
    for (const [text, encoded] of Object.entries(vectors)) {
      expect(bytesToBase64(utf8Encode(text))).toBe(encoded);
      expect(utf8Decode(base64ToBytes(encoded))).toBe(text);
    }
  });

  it('decodes long strings like the reference, each in one go', () => {
    for (const length of [64, 1952, 3309]) {
      const bytes = sampleBytes(length);
      expect(base64ToBytes(Buffer.from(bytes).toString('base64'))).toEqual(bytes);
    }
  });

  it.each([
    'Zg',
    'Zh==',
    'Zm9v\n',
    'Zm9-',
    'Z===',
    '====',
    'Zg==Zg==',
    'Zm9=',
    'Zm=v',
    'Zm9vZm\u00e9=',
    'Zm9v Zm8=',
  ])('rejects the malformed or non-canonical encoding %j', (encoded) => {
    expect(() => base64ToBytes(encoded)).toThrow(RangeError);
  });
});

describe('hex', () => {
  it('round-trips and accepts either letter case', () => {
    const bytes = sampleBytes(33);
    expect(hexToBytes(toHex(bytes))).toEqual(bytes);
    expect(hexToBytes('ABcd')).toEqual(Uint8Array.of(0xab, 0xcd));
  });

  it.each(['abc', 'zz', '0x00'])('rejects %j', (hex) => {
    expect(() => hexToBytes(hex)).toThrow(RangeError);
  });
});

describe('utf8', () => {
  it('round-trips text outside ASCII', () => {
    expect(utf8Decode(utf8Encode('Grüße 🔐'))).toBe('Grüße 🔐');
  });

  it('refuses invalid UTF-8 instead of inserting replacement characters', () => {
    expect(() => utf8Decode(Uint8Array.of(0xc3, 0x28))).toThrow(TypeError);
  });
});

describe('constant-time equality and concatenation', () => {
  it('says equal only for the same bytes of the same length', () => {
    expect(constantTimeEqual(Uint8Array.of(1, 2, 3), Uint8Array.of(1, 2, 3))).toBe(true);
    expect(constantTimeEqual(Uint8Array.of(1, 2, 3), Uint8Array.of(1, 2, 4))).toBe(false);
    expect(constantTimeEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 2, 3))).toBe(false);
    expect(constantTimeEqual(new Uint8Array(0), new Uint8Array(0))).toBe(true);
  });

  it('joins parts in order', () => {
    expect(concatBytes(Uint8Array.of(1), new Uint8Array(0), Uint8Array.of(2, 3))).toEqual(
      Uint8Array.of(1, 2, 3),
    );
  });
});
