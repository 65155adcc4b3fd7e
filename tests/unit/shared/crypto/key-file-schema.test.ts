import { describe, expect, it } from 'vitest';
import { TEXT } from '../../../../shared/protocol/errors.js';
import { createKeyFile } from '../../../../shared/crypto/key-file.js';
import {
  isKeyExpired,
  isKeyFileName,
  KEY_FILE_MAX_CHARS,
  keyFileName,
  parseKeyFileText,
  serializeKeyFile,
  type KeyFile,
} from '../../../../shared/crypto/key-file-schema.js';
import { seededRandom } from '../../../../scripts/crypto-fixtures.js';

// Top-level await: the tables below are built from this file when the suite is collected.
const keyFile: KeyFile = await createKeyFile({
  username: 'carol',
  now: new Date('2025-01-01T00:00:00.000Z'),
  random: seededRandom('carol'),
});
const text = serializeKeyFile(keyFile);
const REMOVE = Symbol('remove');

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

/** The key file's JSON text with the value at `path` replaced (or removed with REMOVE). */
const changedText = (path: readonly PropertyKey[], value: unknown): string => {
  const json: unknown = JSON.parse(text);
  let parent: unknown = json;
  for (const key of path.slice(0, -1)) parent = isObject(parent) ? Reflect.get(parent, key) : null;
  if (!isObject(parent)) throw new Error(`No object at ${path.join('.')}`);
  const last = path.at(-1)!;
  if (value === REMOVE) Reflect.deleteProperty(parent, last);
  else Reflect.set(parent, last, value);
  return JSON.stringify(json);
};

describe('parseKeyFileText error texts', () => {
  it.each(['', 'not json', '{"keyId": ', "{'keyId': 'x'}"])(
    'answers "Invalid key file format - not valid JSON" for %j',
    (input) => {
      expect(parseKeyFileText(input)).toEqual({
        ok: false,
        code: 'invalid-json',
        error: TEXT.invalidKeyJson,
      });
    },
  );

  it.each([
    ['an empty object', '{}'],
    ['an array', '[]'],
    ['null', 'null'],
    ['a number', '42'],
    ['a file without keyId', changedText(['keyId'], REMOVE)],
    ['a file without username', changedText(['username'], REMOVE)],
    ['a file without permissions', changedText(['permissions'], REMOVE)],
    ['a file whose username is null', changedText(['username'], null)],
  ])('answers "Invalid key file - missing required fields" for %s', (_name, input) => {
    expect(parseKeyFileText(input)).toEqual({
      ok: false,
      code: 'missing-fields',
      error: TEXT.invalidKeyFields,
    });
  });

  it.each([
    ['a byte above 255', ['ecdsaPublicKey', 3], 256],
    ['a negative byte', ['selfSignature', 0], -1],
    ['a fractional byte', ['ecdsaPublicKey', 3], 1.5],
    ['a byte written as a string', ['ecdsaPublicKey', 3], '7'],
    ['a public key one byte short', ['dilithiumPublicKey', 'length'], 1951],
    ['a signature one byte long', ['selfSignature', 3309], 0],
    ['an unknown field', ['extra'], true],
    ['an unknown permissions field', ['permissions', 'extra'], 1],
    ['version 2', ['version'], 2],
    ['a key id without its prefix', ['keyId'], keyFile.keyId.slice(3)],
    ['an unknown permission level', ['permissions', 'level'], 'root'],
    ['an unknown capability', ['permissions', 'capabilities', 0], 'root'],
    ['a date that is not ISO', ['created'], 'yesterday'],
    ['an uppercase fingerprint', ['fingerprint'], keyFile.fingerprint.toUpperCase()],
    ['a username with surrounding spaces', ['username'], ' carol '],
    ['a username of 65 characters', ['username'], 'c'.repeat(65)],
    ['a private key that is a string', ['ecdsaPrivateKey'], 'secret'],
  ])('answers "Failed to parse key file" for %s', (_name, path, value) => {
    expect(parseKeyFileText(changedText(path, value))).toEqual({
      ok: false,
      code: 'parse-failed',
      error: TEXT.keyParseFailed,
    });
  });

  it('refuses text over the size limit before parsing it', () => {
    const padded = text.replace('{', `{${' '.repeat(KEY_FILE_MAX_CHARS)}`);
    expect(parseKeyFileText(padded)).toMatchObject({ ok: false, error: TEXT.keyParseFailed });
  });

  it('accepts a file without expires or private keys, and never echoes input in errors', () => {
    const withoutExpires = parseKeyFileText(changedText(['expires'], REMOVE));
    expect(withoutExpires.ok && withoutExpires.keyFile.expires).toBeUndefined();
    const withoutPrivateKey = parseKeyFileText(changedText(['ecdsaPrivateKey'], REMOVE));
    expect(withoutPrivateKey.ok).toBe(true);
    const hostile = changedText(['username'], '<script>alert(1)</script>'.repeat(5));
    const result = parseKeyFileText(hostile);
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).not.toContain('script');
  });
});

describe('key file names', () => {
  it.each([
    ['alice', 'alice.sck'],
    ['Alice Smith', 'Alice_Smith.sck'],
    ['../../etc/passwd', 'etc_passwd.sck'],
    ['ÄÖÜ', 'key.sck'],
    ['', 'key.sck'],
  ])('names the key of %j %j', (username, expected) => {
    expect(keyFileName(username)).toBe(expected);
  });

  it('keeps file names to 64 characters plus the extension', () => {
    expect(keyFileName('a'.repeat(200))).toBe(`${'a'.repeat(64)}.sck`);
  });

  it.each([
    ['key.sck', true],
    ['KEY.SCK', true],
    ['backup.Bin', true],
    ['key.sck.txt', false],
    ['key.json', false],
    ['sck', false],
  ])('says %j is a key file name: %s', (name, expected) => {
    expect(isKeyFileName(name)).toBe(expected);
  });
});

describe('isKeyExpired', () => {
  const now = new Date('2025-06-01T00:00:00.000Z');

  it('is expired at and after the expiry instant, not before', () => {
    expect(isKeyExpired('2025-06-01T00:00:00.000Z', now)).toBe(true);
    expect(isKeyExpired('2025-05-31T23:59:59.999Z', now)).toBe(true);
    expect(isKeyExpired('2025-06-01T00:00:00.001Z', now)).toBe(false);
  });

  it('never expires with null or no expiry, and fails closed on an unreadable date', () => {
    expect(isKeyExpired(null, now)).toBe(false);
    expect(isKeyExpired(undefined, now)).toBe(false);
    expect(isKeyExpired({ expires: null }, now)).toBe(false);
    expect(isKeyExpired('not a date', now)).toBe(true);
  });

  it('reads the expiry of a key file', () => {
    expect(isKeyExpired(keyFile, new Date('2025-12-31T00:00:00.000Z'))).toBe(false);
    expect(isKeyExpired(keyFile, new Date('2026-01-01T00:00:00.000Z'))).toBe(true);
  });
});
