/** Landing key-file check (spec 001 §5): extension, JSON, required fields, in that order. */
import { describe, expect, it } from 'vitest';
import {
  MAX_KEY_FILE_BYTES,
  hasKeyFileExtension,
  validateKeyUpload,
} from '../../../client/lib/key-file/validate-key-upload.js';
import { TEXT } from '../../../shared/protocol/errors.js';

const validKey = {
  version: 1,
  keyId: 'SCK0123456789abcdef0123456789abcdef',
  userId: 'USR0123456789abcdef0123456789abcdef',
  username: 'alice',
  permissions: { level: 'user', rooms: ['all'], capabilities: ['chat', 'upload'] },
  fingerprint: 'ab'.repeat(32),
};

const invalidFileType = {
  ok: false,
  title: TEXT.invalidFileType,
  description: TEXT.invalidFileTypeLanding,
};
const notJson = { ok: false, title: TEXT.uploadFailed, description: TEXT.invalidKeyJson };
const missingFields = { ok: false, title: TEXT.uploadFailed, description: TEXT.invalidKeyFields };

describe('validateKeyUpload', () => {
  it('accepts a .sck or .bin file holding keyId, username and permissions, keeping every field', () => {
    for (const name of ['alice.sck', 'alice.bin']) {
      expect(validateKeyUpload(name, JSON.stringify(validKey))).toEqual({
        ok: true,
        keyData: validKey,
      });
    }
  });

  it('accepts the extensions in any letter case', () => {
    for (const name of ['ALICE.SCK', 'alice.Bin', 'key.sCk']) {
      expect(validateKeyUpload(name, JSON.stringify(validKey)).ok).toBe(true);
      expect(hasKeyFileExtension(name)).toBe(true);
    }
  });

  it('refuses other names with the landing text, before looking at the content', () => {
    for (const name of ['alice.txt', 'alice.json', 'alice.sck.txt', 'alicesck', 'alice', '']) {
      expect(validateKeyUpload(name, JSON.stringify(validKey))).toEqual(invalidFileType);
      expect(hasKeyFileExtension(name)).toBe(false);
    }
    expect(validateKeyUpload('alice.pem', 'not json')).toEqual(invalidFileType);
  });

  it('refuses text that is not JSON', () => {
    for (const text of ['', 'not json', '{"keyId":', "{'keyId':'x'}"]) {
      expect(validateKeyUpload('alice.sck', text)).toEqual(notJson);
    }
  });

  it.each(['keyId', 'username', 'permissions'] as const)(
    'refuses a key without %s as missing required fields',
    (field) => {
      const { [field]: _removed, ...rest } = validKey;
      expect(validateKeyUpload('alice.sck', JSON.stringify(rest))).toEqual(missingFields);
    },
  );

  it('refuses required fields that are empty or of the wrong type', () => {
    const broken = [
      { ...validKey, keyId: '' },
      { ...validKey, username: '' },
      { ...validKey, keyId: 42 },
      { ...validKey, username: null },
      { ...validKey, permissions: 'admin' },
      { ...validKey, permissions: null },
    ];
    for (const key of broken) {
      expect(validateKeyUpload('alice.sck', JSON.stringify(key))).toEqual(missingFields);
    }
  });

  it('refuses JSON that is not an object', () => {
    for (const text of ['null', '[]', '42', '"SCK"', 'true']) {
      expect(validateKeyUpload('alice.bin', text)).toEqual(missingFields);
    }
  });

  it('refuses text larger than any key file without parsing it', () => {
    const huge = `{"pad":"${'x'.repeat(MAX_KEY_FILE_BYTES)}"}`;
    expect(validateKeyUpload('alice.sck', huge)).toEqual({
      ok: false,
      title: TEXT.uploadFailed,
      description: TEXT.failedToLoadKeyFile,
    });
  });
});
