import { beforeAll, describe, expect, it } from 'vitest';
import { createKeyFile } from '../../../../shared/crypto/key-file.js';
import type { KeyFile } from '../../../../shared/crypto/key-file-schema.js';
import {
  PBKDF2_ITERATIONS,
  RememberedKeyError,
  forgetRememberedKey,
  openRememberedKey,
  rememberKeyFile,
  rememberedKeySummary,
  type RememberedKeyRecord,
} from '../../../../client/lib/key-file/remembered-key.js';
import { memoryStorage } from '../../../support/remembered-key-storage.js';

// Tests lower the PBKDF2 cost; the product's figure is checked below.
const FAST = 1_000;

async function errorOf(promise: Promise<unknown>): Promise<RememberedKeyError> {
  const error: unknown = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(RememberedKeyError);
  return error as RememberedKeyError;
}

let keyFile: KeyFile;
beforeAll(async () => {
  keyFile = await createKeyFile({ username: 'remembered' });
});

describe('the remembered key (device mode)', () => {
  it('gives back the same key file after a round trip', async () => {
    const storage = memoryStorage();
    await rememberKeyFile(storage, keyFile);
    expect(await rememberedKeySummary(storage)).toEqual({
      keyId: keyFile.keyId,
      username: 'remembered',
      mode: 'device',
    });
    expect(await openRememberedKey(storage)).toEqual(keyFile);
  });

  it('keeps its wrapping key non-extractable', async () => {
    const storage = memoryStorage();
    await rememberKeyFile(storage, keyFile);
    const wrappingKey = storage.record?.wrappingKey;
    expect(wrappingKey?.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('raw', wrappingKey!)).rejects.toThrow();
  });

  it('refuses a changed ciphertext, iv or key id with a tampered error', async () => {
    for (const change of [
      (record: RememberedKeyRecord) => {
        record.ciphertext[10] = record.ciphertext[10]! ^ 1;
      },
      (record: RememberedKeyRecord) => {
        record.iv[0] = record.iv[0]! ^ 1;
      },
      (record: RememberedKeyRecord) => {
        record.keyId = 'SCK' + '0'.repeat(32);
      },
    ]) {
      const storage = memoryStorage();
      await rememberKeyFile(storage, keyFile);
      change(storage.record!);
      expect((await errorOf(openRememberedKey(storage))).code).toBe('tampered');
    }
  });

  it('refuses a record relabelled as the other mode', async () => {
    const storage = memoryStorage();
    await rememberKeyFile(storage, keyFile, { passphrase: 'correct horse', iterations: FAST });
    storage.record!.mode = 'device';
    expect((await errorOf(openRememberedKey(storage))).code).toBe('tampered');
  });

  it('forgets everything: nothing is left to open', async () => {
    const storage = memoryStorage();
    await rememberKeyFile(storage, keyFile);
    await forgetRememberedKey(storage);
    expect(storage.record).toBeNull();
    expect(await rememberedKeySummary(storage)).toBeNull();
    expect(await openRememberedKey(storage)).toBeNull();
  });
});

describe('the remembered key (passphrase mode)', () => {
  it('uses PBKDF2-SHA-256 with 600,000 iterations by default', async () => {
    expect(PBKDF2_ITERATIONS).toBe(600_000);
    const storage = memoryStorage();
    await rememberKeyFile(storage, keyFile, { passphrase: 'correct horse' });
    expect(storage.record?.iterations).toBe(600_000);
    expect(storage.record?.wrappingKey).toBeUndefined();
  });

  it('gives back the key file with the right passphrase', async () => {
    const storage = memoryStorage();
    await rememberKeyFile(storage, keyFile, { passphrase: 'correct horse', iterations: FAST });
    expect(await openRememberedKey(storage, 'correct horse')).toEqual(keyFile);
  });

  it('says wrong-passphrase for a wrong one and passphrase-required for none', async () => {
    const storage = memoryStorage();
    await rememberKeyFile(storage, keyFile, { passphrase: 'correct horse', iterations: FAST });
    expect((await errorOf(openRememberedKey(storage, 'wrong horse'))).code).toBe(
      'wrong-passphrase',
    );
    expect((await errorOf(openRememberedKey(storage))).code).toBe('passphrase-required');
  });

  it('says tampered when the ciphertext changed under the right passphrase', async () => {
    const storage = memoryStorage();
    await rememberKeyFile(storage, keyFile, { passphrase: 'correct horse', iterations: FAST });
    const record = storage.record!;
    const last = record.ciphertext.length - 1;
    record.ciphertext[last] = record.ciphertext[last]! ^ 1;
    expect((await errorOf(openRememberedKey(storage, 'correct horse'))).code).toBe('tampered');
  });

  it('refuses a passphrase shorter than 8 characters and stores nothing', async () => {
    const storage = memoryStorage();
    expect((await errorOf(rememberKeyFile(storage, keyFile, { passphrase: 'short' }))).code).toBe(
      'passphrase-too-short',
    );
    expect(storage.record).toBeNull();
  });
});
