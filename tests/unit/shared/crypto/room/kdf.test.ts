import { describe, expect, it } from 'vitest';
import { hexToBytes, toHex } from '../../../../../shared/crypto/bytes.js';
import {
  hkdf,
  iterationInfo,
  KDF_LABEL_PREFIX,
  KDF_LABELS,
  uint32BigEndian,
  wipe,
} from '../../../../../shared/crypto/room/index.js';

describe('HKDF-SHA-256', () => {
  it('matches RFC 5869 test case 1 (A.1)', () => {
    const okm = hkdf(
      hexToBytes('0b'.repeat(22)),
      hexToBytes('000102030405060708090a0b0c'),
      hexToBytes('f0f1f2f3f4f5f6f7f8f9'),
      42,
    );
    expect(toHex(okm)).toBe(
      '3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865',
    );
  });

  it('matches RFC 5869 test case 3 (A.3): no salt means 32 zero bytes, empty info', () => {
    const okm = hkdf(hexToBytes('0b'.repeat(22)), null, new Uint8Array(0), 42);
    expect(toHex(okm)).toBe(
      '8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8',
    );
  });

  it('refuses lengths outside 1..8160', () => {
    const ikm = new Uint8Array(32);
    expect(() => hkdf(ikm, null, new Uint8Array(0), 0)).toThrow(RangeError);
    expect(() => hkdf(ikm, null, new Uint8Array(0), 8161)).toThrow(RangeError);
  });
});

describe('domain-separation labels', () => {
  it('are distinct, versioned and share one prefix', () => {
    const labels = Object.values(KDF_LABELS);
    expect(new Set(labels).size).toBe(labels.length);
    for (const label of labels) expect(label.startsWith(KDF_LABEL_PREFIX)).toBe(true);
    expect(KDF_LABEL_PREFIX).toBe('securechannel/v1/');
  });

  it('derive different keys from one secret', () => {
    const secret = new Uint8Array(32).fill(7);
    const keys = Object.values(KDF_LABELS).map((label) =>
      toHex(hkdf(secret, null, iterationInfo(label, 0), 32)),
    );
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('helpers', () => {
  it('write iterations as 4 big-endian bytes and refuse anything else', () => {
    expect(toHex(uint32BigEndian(0x01020304))).toBe('01020304');
    expect(toHex(uint32BigEndian(0xffff_ffff))).toBe('ffffffff');
    for (const bad of [-1, 2 ** 32, 1.5, Number.NaN]) {
      expect(() => uint32BigEndian(bad)).toThrow(RangeError);
    }
  });

  it('wipe secrets with zeros', () => {
    const secret = Uint8Array.of(1, 2, 3);
    wipe(secret, null);
    expect(secret).toEqual(new Uint8Array(3));
  });
});
