import { describe, expect, it } from 'vitest';
import { numbersToBytes } from '../../../../shared/crypto/bytes.js';
import { createKeyFile, verifyKeyFileIntegrity } from '../../../../shared/crypto/key-file.js';
import { publicPart } from '../../../../shared/crypto/key-file-schema.js';
import {
  decryptDirectMessage,
  encryptDirectMessage,
  generateThreadKey,
  unwrapThreadKey,
  wrapThreadKey,
} from '../../../../shared/crypto/dm/thread-key.js';
import { DecryptError } from '../../../../shared/crypto/room/room-crypto-error.js';

describe('direct-message keys', async () => {
  const alice = await createKeyFile({ username: 'alice' });
  const bob = await createKeyFile({ username: 'bob' });
  const bobPublic = { keyId: bob.keyId, publicKey: bob.encryptionPublicKey! };

  it('gives new key files a signed encryption key that survives in the public part', async () => {
    expect(alice.encryptionPublicKey?.kem).toHaveLength(1184);
    expect(alice.encryptionPrivateKey?.kem).toHaveLength(2400);
    expect(await verifyKeyFileIntegrity(alice)).toEqual({ ok: true });
    const shared = publicPart(alice);
    expect(shared).not.toHaveProperty('encryptionPrivateKey');
    expect(await verifyKeyFileIntegrity(shared)).toEqual({ ok: true });
  });

  it('fails the integrity check when the encryption key is swapped or its signature broken', async () => {
    expect(
      (await verifyKeyFileIntegrity({ ...alice, encryptionPublicKey: bob.encryptionPublicKey })).ok,
    ).toBe(false);
    const signature = [...alice.encryptionKeySignature!];
    signature[100] = signature[100]! ^ 1;
    expect((await verifyKeyFileIntegrity({ ...alice, encryptionKeySignature: signature })).ok).toBe(
      false,
    );
    expect(
      (await verifyKeyFileIntegrity({ ...alice, encryptionPrivateKey: bob.encryptionPrivateKey }))
        .ok,
    ).toBe(false);
  });

  it('wraps a thread key that only its addressee can unwrap', async () => {
    const threadKey = generateThreadKey();
    const wrapped = await wrapThreadKey(threadKey, bobPublic, alice.keyId);
    expect(await unwrapThreadKey(wrapped, bob.keyId, bob.encryptionPrivateKey!)).toEqual(threadKey);
    await expect(
      unwrapThreadKey(wrapped, alice.keyId, alice.encryptionPrivateKey!),
    ).rejects.toBeInstanceOf(DecryptError);
    await expect(
      unwrapThreadKey(wrapped, bob.keyId, alice.encryptionPrivateKey!),
    ).rejects.toBeInstanceOf(DecryptError);
  });

  it('rejects a tampered wrapped key', async () => {
    const wrapped = await wrapThreadKey(generateThreadKey(), bobPublic, alice.keyId);
    const envelope = JSON.parse(Buffer.from(wrapped, 'base64').toString()) as Record<
      string,
      string
    >;
    const ct = Buffer.from(envelope.ct!, 'base64');
    ct[0] = ct[0]! ^ 1;
    const tampered = Buffer.from(
      JSON.stringify({ ...envelope, ct: ct.toString('base64') }),
    ).toString('base64');
    await expect(
      unwrapThreadKey(tampered, bob.keyId, bob.encryptionPrivateKey!),
    ).rejects.toMatchObject({ code: 'AUTH_FAILED' });
    const forgedSender = Buffer.from(JSON.stringify({ ...envelope, from: bob.keyId })).toString(
      'base64',
    );
    await expect(
      unwrapThreadKey(forgedSender, bob.keyId, bob.encryptionPrivateKey!),
    ).rejects.toBeInstanceOf(DecryptError);
  });

  it('encrypts messages under SHA-256 of the thread key with a 12-byte IV', async () => {
    const threadKey = generateThreadKey();
    const sealed = await encryptDirectMessage('meet at the safehouse', threadKey);
    expect(numbersToBytes([...Buffer.from(sealed.iv, 'base64')])).toHaveLength(12);
    expect(await decryptDirectMessage(sealed, threadKey)).toBe('meet at the safehouse');
    await expect(decryptDirectMessage(sealed, generateThreadKey())).rejects.toMatchObject({
      code: 'AUTH_FAILED',
    });
    await expect(
      decryptDirectMessage({ ...sealed, iv: Buffer.alloc(16).toString('base64') }, threadKey),
    ).rejects.toMatchObject({ code: 'MALFORMED' });
  });
});
