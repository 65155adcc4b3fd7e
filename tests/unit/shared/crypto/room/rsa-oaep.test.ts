import { describe, expect, it } from 'vitest';
import { utf8Encode } from '../../../../../shared/crypto/bytes.js';
import {
  EncryptError,
  exportRsaPublicKey,
  generateRsaOaepKeyPair,
  importRsaPublicKey,
  rsaOaepDecrypt,
  rsaOaepEncrypt,
  RSA_OAEP_CIPHERTEXT_BYTES,
} from '../../../../../shared/crypto/room/index.js';
import { flipBit } from '../../../../support/bytes.js';
import { expectDecryptError } from './room-test-kit.js';

const pair = await generateRsaOaepKeyPair();
const contentKey = new Uint8Array(32).fill(9);
const label = utf8Encode('{"room":"r"}');

describe('RSA-OAEP-SHA-256 keys', () => {
  it('generates a 2048-bit pair whose private key cannot be exported', () => {
    expect(pair.privateKey.extractable).toBe(false);
    expect(pair.publicKey.algorithm).toMatchObject({ name: 'RSA-OAEP', modulusLength: 2048 });
  });

  it('exports the public key as SPKI and imports it back for encryption', async () => {
    const spki = await exportRsaPublicKey(pair.publicKey);
    expect(spki.length).toBe(294);
    const imported = await importRsaPublicKey(spki);
    const wrapped = await rsaOaepEncrypt(imported, contentKey, label);
    expect(wrapped).toHaveLength(RSA_OAEP_CIPHERTEXT_BYTES);
    expect(await rsaOaepDecrypt(pair.privateKey, wrapped, label)).toEqual(contentKey);
  });

  it('refuses a 1024-bit key and bytes that are no key', async () => {
    const small = await crypto.subtle.generateKey(
      {
        name: 'RSA-OAEP',
        modulusLength: 1024,
        publicExponent: Uint8Array.of(1, 0, 1),
        hash: 'SHA-256',
      },
      true,
      ['encrypt', 'decrypt'],
    );
    const smallSpki = new Uint8Array(await crypto.subtle.exportKey('spki', small.publicKey));
    await expect(importRsaPublicKey(smallSpki)).rejects.toBeInstanceOf(EncryptError);
    await expect(importRsaPublicKey(Uint8Array.of(1, 2, 3))).rejects.toBeInstanceOf(EncryptError);
  });
});

describe('RSA-OAEP wrapping', () => {
  it('is randomized: two wraps of one key differ and both open', async () => {
    const first = await rsaOaepEncrypt(pair.publicKey, contentKey, label);
    const second = await rsaOaepEncrypt(pair.publicKey, contentKey, label);
    expect(first).not.toEqual(second);
    expect(await rsaOaepDecrypt(pair.privateKey, second, label)).toEqual(contentKey);
  });

  it('rejects another label (the AAD binding), a flipped bit and a wrong size', async () => {
    const wrapped = await rsaOaepEncrypt(pair.publicKey, contentKey, label);
    await expectDecryptError(
      rsaOaepDecrypt(pair.privateKey, wrapped, utf8Encode('other')),
      'AUTH_FAILED',
    );
    await expectDecryptError(
      rsaOaepDecrypt(pair.privateKey, flipBit(wrapped, 7), label),
      'AUTH_FAILED',
    );
    await expectDecryptError(
      rsaOaepDecrypt(pair.privateKey, wrapped.subarray(1), label),
      'MALFORMED',
    );
  });
});
