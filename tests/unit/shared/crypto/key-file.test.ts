import { beforeAll, describe, expect, it } from 'vitest';
import { TEXT } from '../../../../shared/protocol/errors.js';
import { canonicalJson } from '../../../../shared/crypto/canonical-json.js';
import { computeKeyFingerprint } from '../../../../shared/crypto/fingerprint.js';
import { numbersToBytes, utf8Decode } from '../../../../shared/crypto/bytes.js';
import { KeyFileError } from '../../../../shared/crypto/key-file-error.js';
import {
  KeyFileSchema,
  KeyPublicPartSchema,
  parseKeyFileText,
  publicPart,
  serializeKeyFile,
  type KeyFile,
} from '../../../../shared/crypto/key-file-schema.js';
import {
  createKeyFile,
  KEY_FILE_SIGNED_FIELDS,
  keyFileSignedMessage,
  signChallenge,
  verifyChallengeSignatures,
  verifyKeyFileIntegrity,
  type KeyIntegrityFailure,
} from '../../../../shared/crypto/key-file.js';
import { seededRandom } from '../../../../scripts/crypto-fixtures.js';

const NOW = new Date('2025-06-01T12:00:00.000Z');
let alice: KeyFile;
let bob: KeyFile;

beforeAll(async () => {
  alice = await createKeyFile({ username: '  alice  ', now: NOW, random: seededRandom('alice') });
  bob = await createKeyFile({
    username: 'bob',
    level: 'admin',
    now: NOW,
    random: seededRandom('bob'),
  });
});

/** A deep copy of `alice` with `change` applied to it. */
const tampered = (change: (copy: KeyFile) => void): KeyFile => {
  const copy = structuredClone(alice);
  change(copy);
  return copy;
};
const flipByte = (bytes: number[], index: number) => {
  bytes[index] = bytes[index]! ^ 0x01;
};
const changeLastHexDigit = (hex: string) => `${hex.slice(0, -1)}${hex.endsWith('0') ? '1' : '0'}`;

describe('createKeyFile', () => {
  it('makes a file that the schema accepts, with the trimmed username', () => {
    expect(KeyFileSchema.safeParse(alice).success).toBe(true);
    expect(alice.username).toBe('alice');
    expect(alice.keyId).toMatch(/^SCK[0-9a-f]{32}$/);
    expect(alice.userId).toMatch(/^USR[0-9a-f]{32}$/);
    expect(alice.hardwareFingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it('gives admin keys admin, chat, upload, moderate and other keys chat, upload, all rooms', async () => {
    expect(bob.permissions).toMatchObject({ level: 'admin', rooms: ['all'] });
    expect(bob.permissions.capabilities).toEqual(['admin', 'chat', 'upload', 'moderate']);
    expect(alice.permissions).toMatchObject({ level: 'user', rooms: ['all'] });
    expect(alice.permissions.capabilities).toEqual(['chat', 'upload']);
    const guest = await createKeyFile({ username: 'g', level: 'guest', now: NOW });
    expect(guest.permissions.capabilities).toEqual(['chat', 'upload']);
  });

  it('expires after 365 days by default and never with 0 days', async () => {
    expect(alice.created).toBe('2025-06-01T12:00:00.000Z');
    expect(alice.expires).toBe('2026-06-01T12:00:00.000Z');
    expect(alice.permissions.expires).toBe(alice.expires);
    const forever = await createKeyFile({ username: 'forever', validityDays: 0, now: NOW });
    expect(forever.expires).toBeNull();
    expect(forever.permissions.expires).toBeNull();
  });

  it('refuses an empty username with the spec text, and a negative validity', async () => {
    await expect(createKeyFile({ username: '   ' })).rejects.toMatchObject({
      code: 'invalid-username',
      message: TEXT.usernameRequired,
    });
    await expect(createKeyFile({ username: 'x'.repeat(65) })).rejects.toBeInstanceOf(KeyFileError);
    await expect(createKeyFile({ username: 'a', validityDays: -1 })).rejects.toMatchObject({
      code: 'invalid-validity',
    });
  });

  it('makes a different key every time when randomness is not injected', async () => {
    const first = await createKeyFile({ username: 'same', now: NOW });
    const second = await createKeyFile({ username: 'same', now: NOW });
    expect(first.keyId).not.toBe(second.keyId);
    expect(first.dilithiumPublicKey).not.toEqual(second.dilithiumPublicKey);
  });
});

describe('the self-signature', () => {
  it('covers every public field except itself and the separately signed encryption key', () => {
    const separatelySigned = ['selfSignature', 'encryptionPublicKey', 'encryptionKeySignature'];
    const publicFields = Object.keys(KeyPublicPartSchema.shape).filter(
      (field) => !separatelySigned.includes(field),
    );
    expect([...KEY_FILE_SIGNED_FIELDS].sort()).toEqual(publicFields.sort());
  });

  it('signs the canonical JSON of those fields', () => {
    const text = utf8Decode(keyFileSignedMessage(alice));
    const signed = Object.fromEntries(KEY_FILE_SIGNED_FIELDS.map((field) => [field, alice[field]]));
    expect(text).toBe(canonicalJson(signed));
    expect(text).not.toContain('selfSignature');
    expect(text).not.toContain('PrivateKey');
  });

  it('treats an absent expires like null', async () => {
    const forever = await createKeyFile({ username: 'forever', validityDays: 0, now: NOW });
    const { expires: _top, ...withoutExpires } = forever;
    delete withoutExpires.permissions.expires;
    expect(await verifyKeyFileIntegrity(withoutExpires)).toEqual({ ok: true });
  });
});

describe('key file round trip', () => {
  it('survives create → serialize → parse → integrity → sign and verify a challenge', async () => {
    const parsed = parseKeyFileText(serializeKeyFile(alice));
    expect(parsed).toEqual({ ok: true, keyFile: alice });
    if (!parsed.ok) return;
    expect(await verifyKeyFileIntegrity(parsed.keyFile)).toEqual({ ok: true });

    const challenge = 'c2VjdXJlY2hhbm5lbA-challenge-7f3a';
    const signatures = await signChallenge(parsed.keyFile, challenge);
    expect(signatures.dilithiumSignature).toHaveLength(3309);
    expect(signatures.ecdsaSignature).toHaveLength(64);
    const registered = publicPart(parsed.keyFile);
    const check = {
      challenge,
      ...signatures,
      dilithiumPublicKey: registered.dilithiumPublicKey,
      ecdsaPublicKey: numbersToBytes(registered.ecdsaPublicKey),
    };
    expect(await verifyChallengeSignatures(check)).toBe(true);
    expect(await verifyChallengeSignatures({ ...check, challenge: `${challenge}x` })).toBe(false);
    expect(await verifyChallengeSignatures({ ...check, ecdsaPublicKey: bob.ecdsaPublicKey })).toBe(
      false,
    );
    expect(
      await verifyChallengeSignatures({ ...check, dilithiumPublicKey: bob.dilithiumPublicKey }),
    ).toBe(false);
  });

  it('keeps byte arrays on one line and ends with a newline', () => {
    const text = serializeKeyFile(alice);
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.split('\n').length).toBeLessThan(40);
  });

  it('registers a public part that has no private keys and still passes the integrity check', async () => {
    const registered = publicPart(alice);
    expect(KeyPublicPartSchema.safeParse(registered).success).toBe(true);
    expect(KeyPublicPartSchema.safeParse(alice).success).toBe(false);
    expect(registered).not.toHaveProperty('dilithiumPrivateKey');
    expect(registered).not.toHaveProperty('ecdsaPrivateKey');
    expect(alice.dilithiumPrivateKey).toBeDefined();
    expect(await verifyKeyFileIntegrity(registered)).toEqual({ ok: true });
  });

  it('refuses to sign a challenge without private keys', async () => {
    await expect(signChallenge(publicPart(alice), 'challenge')).rejects.toMatchObject({
      code: 'private-key-missing',
    });
  });

  it('answers false, without throwing, for challenge input that is not bytes', async () => {
    const signatures = await signChallenge(alice, 'c');
    const check = {
      challenge: 'c',
      ...signatures,
      dilithiumPublicKey: alice.dilithiumPublicKey,
      ecdsaPublicKey: alice.ecdsaPublicKey,
    };
    expect(await verifyChallengeSignatures({ ...check, ecdsaSignature: [1, 2, 300] })).toBe(false);
    expect(await verifyChallengeSignatures({ ...check, dilithiumSignature: [] })).toBe(false);
    expect(await verifyChallengeSignatures({ ...check, ecdsaPublicKey: [4, 1, 2] })).toBe(false);
  });
});

const TAMPERING: readonly [string, (keyFile: KeyFile) => void, KeyIntegrityFailure][] = [
  ['the username', (k: KeyFile) => (k.username = 'alicf'), 'self-signature'],
  [
    'a byte of the ML-DSA public key',
    (k: KeyFile) => flipByte(k.dilithiumPublicKey, 500),
    'fingerprint',
  ],
  ['a byte of the ECDSA public key', (k: KeyFile) => flipByte(k.ecdsaPublicKey, 40), 'fingerprint'],
  ['the permission level', (k: KeyFile) => (k.permissions.level = 'admin'), 'self-signature'],
  [
    'the capabilities',
    (k: KeyFile) => k.permissions.capabilities.push('moderate'),
    'self-signature',
  ],
  ['the expiry', (k: KeyFile) => (k.expires = null), 'self-signature'],
  [
    'the hardware fingerprint',
    (k: KeyFile) => (k.hardwareFingerprint = '0'.repeat(64)),
    'self-signature',
  ],
  [
    'the fingerprint',
    (k: KeyFile) => (k.fingerprint = changeLastHexDigit(k.fingerprint)),
    'fingerprint',
  ],
  [
    'a byte of the self-signature',
    (k: KeyFile) => flipByte(k.selfSignature, 2000),
    'self-signature',
  ],
  [
    'a byte of ρ in the ML-DSA secret key',
    (k: KeyFile) => flipByte(k.dilithiumPrivateKey!, 5),
    'dilithium-private-key',
  ],
  [
    'a byte of tr in the ML-DSA secret key',
    (k: KeyFile) => flipByte(k.dilithiumPrivateKey!, 70),
    'dilithium-private-key',
  ],
  [
    'the secret scalar of the ECDSA key',
    (k: KeyFile) => flipByte(k.ecdsaPrivateKey!, 40),
    'ecdsa-private-key',
  ],
  [
    'the ECDSA key for garbage',
    (k: KeyFile) => (k.ecdsaPrivateKey = [1, 2, 3]),
    'ecdsa-private-key',
  ],
];

describe('verifyKeyFileIntegrity after one change', () => {
  it.each(TAMPERING)('fails when %s changes', async (_name, change, reason) => {
    const result = await verifyKeyFileIntegrity(tampered(change));
    expect(result).toEqual({ ok: false, reason, error: TEXT.keyIntegrityFailed });
  });

  it('fails when the private keys belong to another key', async () => {
    const mixedDilithium = tampered((k) => (k.dilithiumPrivateKey = bob.dilithiumPrivateKey));
    expect(await verifyKeyFileIntegrity(mixedDilithium)).toMatchObject({
      reason: 'dilithium-private-key',
    });
    const mixedEcdsa = tampered((k) => (k.ecdsaPrivateKey = bob.ecdsaPrivateKey));
    expect(await verifyKeyFileIntegrity(mixedEcdsa)).toMatchObject({ reason: 'ecdsa-private-key' });
  });

  it('fails when public keys are swapped together with a recomputed fingerprint', async () => {
    const swapped = tampered((k) => {
      k.dilithiumPublicKey = bob.dilithiumPublicKey;
      k.fingerprint = computeKeyFingerprint(
        numbersToBytes(k.dilithiumPublicKey),
        numbersToBytes(k.ecdsaPublicKey),
      );
    });
    expect(await verifyKeyFileIntegrity(swapped)).toMatchObject({
      ok: false,
      reason: 'self-signature',
    });
  });

  it('returns a failure instead of throwing for values that are not bytes', async () => {
    const broken = tampered((k) => (k.dilithiumPublicKey[0] = 300));
    expect(await verifyKeyFileIntegrity(broken)).toMatchObject({ ok: false, reason: 'malformed' });
  });
});
