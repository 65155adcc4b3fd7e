import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { concatBytes, utf8Encode } from '../../../../../shared/crypto/bytes.js';
import { aesCbcHmacDecrypt, aesCbcHmacEncrypt } from '../../../../../shared/crypto/room/index.js';
import { seededRandom } from '../../../../../scripts/crypto-fixtures.js';
import { flipBit } from '../../../../support/bytes.js';
import { expectDecryptError } from './room-test-kit.js';

const random = seededRandom('aes-cbc-hmac test');
const keys = random(64);
const iv = random(16);
const aad = utf8Encode('{"room":"r"}');
const plaintext = utf8Encode('sixteen bytes!!!and more');

describe('AES-256-CBC + HMAC-SHA-256 (encrypt-then-MAC)', () => {
  it('pads with PKCS#7 to whole blocks and decrypts back', async () => {
    const sealed = await aesCbcHmacEncrypt(keys, iv, plaintext, aad);
    expect(sealed.ciphertext).toHaveLength(32);
    expect(sealed.tag).toHaveLength(32);
    expect(await aesCbcHmacDecrypt(keys, iv, sealed, aad)).toEqual(plaintext);
  });

  it('tags aad ‖ iv ‖ ciphertext ‖ AL with the second half of the keys (RFC 7518 §5.2.2.1)', async () => {
    const sealed = await aesCbcHmacEncrypt(keys, iv, plaintext, aad);
    const bitLength = new Uint8Array(8);
    new DataView(bitLength.buffer).setUint32(4, aad.length * 8);
    const expected = hmac(
      sha256,
      keys.subarray(32),
      concatBytes(aad, iv, sealed.ciphertext, bitLength),
    );
    expect(sealed.tag).toEqual(expected);
  });

  it('rejects a flipped bit anywhere before decrypting (no padding oracle: always AUTH_FAILED)', async () => {
    const sealed = await aesCbcHmacEncrypt(keys, iv, plaintext, aad);
    const cases = [
      aesCbcHmacDecrypt(keys, flipBit(iv, 15), sealed, aad),
      aesCbcHmacDecrypt(keys, iv, { ...sealed, ciphertext: flipBit(sealed.ciphertext, -1) }, aad),
      aesCbcHmacDecrypt(keys, iv, { ...sealed, tag: flipBit(sealed.tag, 0) }, aad),
      aesCbcHmacDecrypt(keys, iv, sealed, flipBit(aad, 2)),
      aesCbcHmacDecrypt(flipBit(keys, 40), iv, sealed, aad),
    ];
    for (const attempt of cases) await expectDecryptError(attempt, 'AUTH_FAILED');
  });

  it('moving bytes between aad and ciphertext changes the tag (AL makes the MAC input unambiguous)', async () => {
    const sealed = await aesCbcHmacEncrypt(keys, iv, plaintext, aad);
    const shiftedAad = concatBytes(aad, iv.subarray(0, 1));
    const shiftedIv = concatBytes(iv.subarray(1), sealed.ciphertext.subarray(0, 1));
    await expectDecryptError(
      aesCbcHmacDecrypt(keys, shiftedIv, { ...sealed, ciphertext: sealed.ciphertext }, shiftedAad),
      'AUTH_FAILED',
    );
  });

  it('refuses impossible sizes as malformed', async () => {
    const sealed = await aesCbcHmacEncrypt(keys, iv, plaintext, aad);
    const truncated = { ...sealed, ciphertext: sealed.ciphertext.subarray(1) };
    await expectDecryptError(aesCbcHmacDecrypt(keys, iv, truncated, aad), 'MALFORMED');
    await expectDecryptError(
      aesCbcHmacDecrypt(keys, iv, { ...sealed, tag: sealed.tag.subarray(16) }, aad),
      'MALFORMED',
    );
  });
});
