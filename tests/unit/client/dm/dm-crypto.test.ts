/**
 * The browser's direct-message crypto (spec 001 §5): recipient keys are verified before anything
 * is wrapped to them, thread keys open for both participants, and decryption failures show the
 * spec's markers instead of disappearing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bytesToBase64 } from '../../../../shared/crypto/bytes.js';
import {
  encryptDirectMessage,
  generateThreadKey,
  unwrapThreadKey,
} from '../../../../shared/crypto/dm/thread-key.js';
import { createKeyFile } from '../../../../shared/crypto/key-file.js';
import { type KeyFile } from '../../../../shared/crypto/key-file-schema.js';
import { secureIdForKey } from '../../../../shared/ids.js';
import { type DirectMessage, type DmRecipientKey } from '../../../../shared/protocol/http/dm.js';
import {
  RecipientKeyUnverifiedError,
  ThreadKeyUnavailableError,
  decryptMessages,
  openThreadKey,
  threadRequest,
  verifiedRecipientKey,
} from '../../../../client/features/dm/dm-crypto.js';
import { ThreadKeyring } from '../../../../client/features/dm/thread-keyring.js';

function recipientOf(key: KeyFile): DmRecipientKey {
  return {
    keyId: key.keyId,
    username: key.username,
    secureId: secureIdForKey(key.keyId),
    fingerprint: key.fingerprint,
    dilithiumPublicKey: key.dilithiumPublicKey,
    encryptionPublicKey: key.encryptionPublicKey ?? null,
    encryptionKeySignature: key.encryptionKeySignature ?? null,
  };
}

function withoutEncryptionKeys(key: KeyFile): KeyFile {
  const {
    encryptionPublicKey: _pub,
    encryptionPrivateKey: _priv,
    encryptionKeySignature: _sig,
    ...rest
  } = key;
  return rest;
}

function message(id: string, sentAt: string, sealed: { encrypted: string; iv: string }) {
  return {
    id,
    threadId: '00000000-0000-4000-8000-000000000000',
    senderKeyId: 'SCK' + '0'.repeat(32),
    senderSecureId: 'SCK_00000000',
    senderUsername: 'alice',
    sentAt,
    expiresAt: '2099-01-01T00:00:00.000Z',
    encryptedContent: sealed.encrypted,
    iv: sealed.iv,
  } satisfies DirectMessage;
}

describe('direct-message crypto in the browser', () => {
  let alice: KeyFile;
  let bob: KeyFile;
  let eve: KeyFile;

  beforeAll(async () => {
    [alice, bob, eve] = await Promise.all([
      createKeyFile({ username: 'alice' }),
      createKeyFile({ username: 'bob' }),
      createKeyFile({ username: 'eve' }),
    ]);
  });

  describe('verifying the recipient key before wrapping', () => {
    it("accepts a recipient whose encryption key is signed by the recipient's identity key", () => {
      expect(verifiedRecipientKey(recipientOf(bob))).toEqual(bob.encryptionPublicKey);
    });

    it('refuses an encryption key swapped for someone else’s', () => {
      const swapped = { ...recipientOf(bob), encryptionPublicKey: eve.encryptionPublicKey! };
      expect(() => verifiedRecipientKey(swapped)).toThrow(RecipientKeyUnverifiedError);
    });

    it('refuses a signature with one flipped bit', () => {
      const signature = [...bob.encryptionKeySignature!];
      signature[10] = signature[10]! ^ 1;
      expect(() =>
        verifiedRecipientKey({ ...recipientOf(bob), encryptionKeySignature: signature }),
      ).toThrow(RecipientKeyUnverifiedError);
    });

    it("refuses an encryption key checked against another identity's ML-DSA key", () => {
      const forged = { ...recipientOf(bob), dilithiumPublicKey: eve.dilithiumPublicKey };
      expect(() => verifiedRecipientKey(forged)).toThrow(RecipientKeyUnverifiedError);
    });

    it('answers null for a key made before encryption keys (server-assisted)', () => {
      expect(verifiedRecipientKey(recipientOf(withoutEncryptionKeys(bob)))).toBeNull();
    });
  });

  describe('the create-thread body', () => {
    it('wraps one fresh thread key to both participants when both have encryption keys', async () => {
      const body = await threadRequest(recipientOf(bob), alice);
      expect(body.recipientKeyId).toBe(bob.keyId);
      const forAlice = await unwrapThreadKey(
        body.wrappedKeys!.creator,
        alice.keyId,
        alice.encryptionPrivateKey!,
      );
      const forBob = await unwrapThreadKey(
        body.wrappedKeys!.recipient,
        bob.keyId,
        bob.encryptionPrivateKey!,
      );
      expect(forAlice).toHaveLength(32);
      expect(forBob).toEqual(forAlice);
      await expect(
        unwrapThreadKey(body.wrappedKeys!.recipient, eve.keyId, eve.encryptionPrivateKey!),
      ).rejects.toThrow();
    });

    it('sends no wrapped keys when the recipient or the sender has no encryption key', async () => {
      expect(await threadRequest(recipientOf(withoutEncryptionKeys(bob)), alice)).toEqual({
        recipientKeyId: bob.keyId,
      });
      expect(await threadRequest(recipientOf(bob), withoutEncryptionKeys(alice))).toEqual({
        recipientKeyId: bob.keyId,
      });
      expect(await threadRequest(recipientOf(bob), null)).toEqual({ recipientKeyId: bob.keyId });
    });

    it('wraps nothing to a recipient key that fails its signature check', async () => {
      const swapped = { ...recipientOf(bob), encryptionPublicKey: eve.encryptionPublicKey! };
      await expect(threadRequest(swapped, alice)).rejects.toThrow(RecipientKeyUnverifiedError);
    });
  });

  describe('opening a thread key', () => {
    it('unwraps an end-to-end thread key with the key file, and only with the right one', async () => {
      const body = await threadRequest(recipientOf(bob), alice);
      const thread = { mode: 'e2e' as const, encryptionKey: body.wrappedKeys!.recipient };
      expect(await openThreadKey(thread, bob.keyId, bob)).toHaveLength(32);
      await expect(openThreadKey(thread, bob.keyId, null)).rejects.toThrow(
        ThreadKeyUnavailableError,
      );
      await expect(openThreadKey(thread, eve.keyId, eve)).rejects.toThrow(
        ThreadKeyUnavailableError,
      );
    });

    it('decodes a server-assisted thread key, which needs no key file', async () => {
      const key = generateThreadKey();
      const thread = { mode: 'server-assisted' as const, encryptionKey: bytesToBase64(key) };
      expect(await openThreadKey(thread, bob.keyId, null)).toEqual(key);
      await expect(
        openThreadKey({ ...thread, encryptionKey: 'AAAA' }, bob.keyId, null),
      ).rejects.toThrow(ThreadKeyUnavailableError);
    });

    it('opens each thread once and tries again after a failure', async () => {
      const body = await threadRequest(recipientOf(bob), alice);
      const thread = { id: 't1', mode: 'e2e' as const, encryptionKey: body.wrappedKeys!.recipient };
      const keyring = new ThreadKeyring(bob.keyId, bob);
      expect(keyring.open(thread)).toBe(keyring.open(thread));
      const locked = new ThreadKeyring(bob.keyId, null);
      const first = locked.open(thread);
      await expect(first).rejects.toThrow(ThreadKeyUnavailableError);
      expect(locked.open(thread)).not.toBe(first);
      await expect(locked.open(thread)).rejects.toThrow(ThreadKeyUnavailableError);
    });
  });

  describe('decrypting a thread', () => {
    it('shows the texts oldest first', async () => {
      const key = generateThreadKey();
      const later = message(
        'b',
        '2025-01-01T00:00:02.000Z',
        await encryptDirectMessage('two', key),
      );
      const earlier = message(
        'a',
        '2025-01-01T00:00:01.000Z',
        await encryptDirectMessage('one', key),
      );
      const shown = await decryptMessages([later, earlier], key);
      expect(shown.map((m) => [m.id, m.content, m.isDecrypted])).toEqual([
        ['a', 'one', true],
        ['b', 'two', true],
      ]);
    });

    it('marks one tampered message [ENCRYPTED: ...] and still shows the others', async () => {
      const key = generateThreadKey();
      const good = message(
        'a',
        '2025-01-01T00:00:01.000Z',
        await encryptDirectMessage('fine', key),
      );
      const sealed = await encryptDirectMessage('tampered', key);
      const flipped = (sealed.encrypted[0] === 'A' ? 'B' : 'A') + sealed.encrypted.slice(1);
      const bad = message('b', '2025-01-01T00:00:02.000Z', { ...sealed, encrypted: flipped });
      const shortIv = message('c', '2025-01-01T00:00:03.000Z', { ...sealed, iv: 'AAAA' });
      const shown = await decryptMessages([good, bad, shortIv], key);
      expect(shown[0]).toMatchObject({ content: 'fine', isDecrypted: true });
      expect(shown[1]!.content).toMatch(/^\[ENCRYPTED: .+\]$/);
      expect(shown[1]!.isDecrypted).toBe(false);
      expect(shown[2]!.content).toMatch(/^\[ENCRYPTED: .+\]$/);
      expect(JSON.stringify(shown)).not.toContain('tampered');
    });

    it('marks every message [DM-DECRYPTION-ERROR] when the thread key could not be opened', async () => {
      const key = generateThreadKey();
      const one = message('a', '2025-01-01T00:00:01.000Z', await encryptDirectMessage('x', key));
      const two = message('b', '2025-01-01T00:00:02.000Z', await encryptDirectMessage('y', key));
      const shown = await decryptMessages([one, two], null);
      expect(shown.map((m) => m.content)).toEqual([
        '[DM-DECRYPTION-ERROR]',
        '[DM-DECRYPTION-ERROR]',
      ]);
      expect(shown.every((m) => !m.isDecrypted)).toBe(true);
    });
  });
});
