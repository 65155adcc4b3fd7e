import { describe, expect, it } from 'vitest';
import { numbersToBytes } from '../../../../shared/crypto/bytes.js';
import { createKeyFile, verifyKeyFileIntegrity } from '../../../../shared/crypto/key-file.js';
import { publicPart } from '../../../../shared/crypto/key-file-schema.js';
import {
  MessageSignatureError,
  openDirectMessage,
  sealDirectMessage,
} from '../../../../shared/crypto/dm/message-seal.js';
import {
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

  it('seals messages under SHA-256 of the thread key with a 12-byte IV, AAD and a signature', async () => {
    const threadKey = generateThreadKey();
    const header = {
      threadId: '0b6f1d0e-4a55-4c39-9e37-2f1b8a3c5d10',
      senderKeyId: alice.keyId,
      counter: 3,
      timestamp: '2026-11-25T10:00:00.000Z',
      expiresAt: '2026-11-25T11:00:00.000Z',
    };
    const aliceKey = numbersToBytes(alice.dilithiumPublicKey);
    const secret = numbersToBytes(alice.dilithiumPrivateKey!);
    const sealed = await sealDirectMessage('meet at the safehouse', threadKey, header, secret);
    expect(Buffer.from(sealed.iv, 'base64')).toHaveLength(12);
    expect(Buffer.from(sealed.signature, 'base64')).toHaveLength(3309);
    expect(await openDirectMessage(sealed, header, threadKey, aliceKey)).toBe(
      'meet at the safehouse',
    );
    // Another key, another counter, sender or thread, a stripped signature: all refused.
    await expect(
      openDirectMessage(sealed, header, generateThreadKey(), aliceKey),
    ).rejects.toMatchObject({ code: 'AUTH_FAILED' });
    for (const changed of [
      { counter: 4 },
      { senderKeyId: bob.keyId },
      { threadId: '0b6f1d0e-4a55-4c39-9e37-2f1b8a3c5d11' },
      { timestamp: '2026-11-25T10:00:01.000Z' },
      { expiresAt: '2026-11-25T12:00:00.000Z' },
    ]) {
      await expect(
        openDirectMessage(sealed, { ...header, ...changed }, threadKey, aliceKey),
      ).rejects.toBeInstanceOf(MessageSignatureError);
    }
    await expect(
      openDirectMessage({ ...sealed, signature: null }, header, threadKey, aliceKey),
    ).rejects.toBeInstanceOf(MessageSignatureError);
    await expect(
      openDirectMessage(sealed, header, threadKey, numbersToBytes(bob.dilithiumPublicKey)),
    ).rejects.toBeInstanceOf(MessageSignatureError);
    await expect(
      openDirectMessage(
        { ...sealed, iv: Buffer.alloc(16).toString('base64') },
        header,
        threadKey,
        aliceKey,
      ),
    ).rejects.toMatchObject({ code: 'MALFORMED' });
  });
});
