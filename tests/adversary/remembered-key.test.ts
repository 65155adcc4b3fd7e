/**
 * "Remember this key on this device" against someone who copies the browser profile
 * (docs/crypto.md "Remembered key"). What is stored: the key id, the username, how the record is
 * sealed, an IV, the AES-256-GCM ciphertext of the key file and either a non-extractable AES key
 * (device mode) or a PBKDF2 salt, iteration count and check value (passphrase mode). No stored
 * byte string contains the key file's private keys; without the passphrase nothing opens.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createKeyFile } from '../../shared/crypto/key-file.js';
import type { KeyFile } from '../../shared/crypto/key-file-schema.js';
import {
  openRememberedKey,
  rememberKeyFile,
  RememberedKeyError,
  type RememberedKeyRecord,
} from '../../client/lib/key-file/remembered-key.js';
import { memoryStorage } from '../support/remembered-key-storage.js';

let keyFile: KeyFile;
let privateParts: Uint8Array[];

beforeAll(async () => {
  keyFile = await createKeyFile({ username: 'stolen-profile' });
  const encryption = keyFile.encryptionPrivateKey;
  expect(encryption).toBeDefined();
  privateParts = [
    keyFile.dilithiumPrivateKey!,
    keyFile.ecdsaPrivateKey!,
    encryption!.kem,
    encryption!.x25519,
  ].map((numbers) => Uint8Array.from(numbers));
});

/** Every byte string and text of the stored record, as an attacker reading the profile sees them. */
function storedBytes(record: RememberedKeyRecord): Uint8Array[] {
  const found: Uint8Array[] = [];
  for (const value of Object.values(record)) {
    if (value instanceof Uint8Array) found.push(value);
    else if (typeof value === 'string') found.push(new TextEncoder().encode(value));
    else if (typeof value === 'number') found.push(new TextEncoder().encode(String(value)));
  }
  return found;
}

/** Whether any 16-byte run of `secret` appears in `haystack`, raw or as the key file's JSON digits. */
function leaks(secret: Uint8Array, haystack: Uint8Array): boolean {
  const text = new TextDecoder('latin1').decode(haystack);
  for (let start = 0; start + 16 <= secret.length; start += 16) {
    const run = secret.subarray(start, start + 16);
    if (text.includes(new TextDecoder('latin1').decode(run))) return true;
    if (text.includes(Array.from(run).join(','))) return true;
  }
  return false;
}

describe('a remembered key in a stolen browser profile', () => {
  for (const mode of ['device', 'passphrase'] as const) {
    it(`stores no private key bytes in the clear (${mode} mode)`, async () => {
      const storage = memoryStorage();
      await rememberKeyFile(
        storage,
        keyFile,
        mode === 'passphrase' ? { passphrase: 'a long passphrase', iterations: 1_000 } : {},
      );
      const record = storage.record!;
      // The stored fields are exactly these: nothing else rides along.
      expect(Object.keys(record).sort()).toEqual(
        mode === 'device'
          ? ['ciphertext', 'iv', 'keyId', 'mode', 'username', 'version', 'wrappingKey']
          : [
              'check',
              'ciphertext',
              'iterations',
              'iv',
              'keyId',
              'mode',
              'salt',
              'username',
              'version',
            ],
      );
      for (const haystack of storedBytes(record)) {
        for (const secret of privateParts) expect(leaks(secret, haystack)).toBe(false);
      }
      // The check itself finds the bytes when they are there.
      expect(leaks(privateParts[0]!, Uint8Array.from(keyFile.dilithiumPrivateKey!))).toBe(true);
    });
  }

  it('device mode: the wrapping key cannot be exported, only used in place', async () => {
    const storage = memoryStorage();
    await rememberKeyFile(storage, keyFile);
    const wrappingKey = storage.record!.wrappingKey!;
    expect(wrappingKey.extractable).toBe(false);
    for (const format of ['raw', 'jwk'] as const) {
      await expect(crypto.subtle.exportKey(format, wrappingKey)).rejects.toThrow();
    }
    // Whoever holds the profile in the same browser can use it: that is what device mode means.
    expect(await openRememberedKey(storage)).toEqual(keyFile);
  });

  it('passphrase mode: the stolen record opens to nothing without the passphrase', async () => {
    const storage = memoryStorage();
    await rememberKeyFile(storage, keyFile, { passphrase: 'a long passphrase', iterations: 1_000 });
    const stolen = structuredClone(storage.record!);
    // No key is stored: nothing in the record decrypts the ciphertext by itself.
    expect(Object.values(stolen).some((value) => value instanceof CryptoKey)).toBe(false);
    const copy = memoryStorage();
    await copy.write(stolen);
    for (const guess of [undefined, '', 'a long passphrasE', 'password1', 'stolen-profile']) {
      const error: unknown = await openRememberedKey(copy, guess).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(RememberedKeyError);
      expect(['passphrase-required', 'wrong-passphrase']).toContain(
        (error as RememberedKeyError).code,
      );
    }
    // Skipping the check value does not help: an AES key derived from a wrong passphrase does
    // not open the ciphertext.
    const material = await crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode('password1'),
      'PBKDF2',
      false,
      ['deriveBits'],
    );
    const bits = await crypto.subtle.deriveBits(
      { name: 'PBKDF2', hash: 'SHA-256', salt: stolen.salt!, iterations: stolen.iterations! },
      material,
      512,
    );
    const guessed = await crypto.subtle.importKey('raw', bits.slice(0, 32), 'AES-GCM', false, [
      'decrypt',
    ]);
    await expect(
      crypto.subtle.decrypt({ name: 'AES-GCM', iv: stolen.iv }, guessed, stolen.ciphertext),
    ).rejects.toThrow();
  });
});
