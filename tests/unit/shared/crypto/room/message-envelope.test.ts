/**
 * The envelope around the message types: size limits, the header a reader peeks at, replay and
 * out-of-order delivery through the reader's chain, and what reaches the wire.
 */
import { describe, expect, it } from 'vitest';
import { TEXT } from '../../../../../shared/protocol/errors.js';
import { SendMessageFrameSchema } from '../../../../../shared/protocol/ws/chat.js';
import {
  decryptMessage,
  encryptMessage,
  EncryptError,
  ENCRYPTION_TYPE_SEQUENCE,
  MAX_ENCRYPTED_CONTENT_CHARS,
  readMessageHeader,
  ReceiverChain,
  type MessageEncryptionType,
} from '../../../../../shared/crypto/room/index.js';
import {
  expectDecryptError,
  makeRoomKeys,
  openEnvelope,
  readerContext,
  sealEnvelope,
  SENDER_KEY_ID,
  senderContext,
} from './room-test-kit.js';

const keys = await makeRoomKeys();

describe('message envelope', () => {
  it('is compact canonical JSON in base64 with v, t, k and i, and fits send_message', async () => {
    const encrypted = await encryptMessage('PFS-ECDH', 'hi', senderContext(keys));
    expect(Object.keys(openEnvelope(encrypted))).toEqual(['ct', 'i', 'iv', 'k', 't', 'v']);
    expect(readMessageHeader(encrypted)).toEqual({
      type: 'PFS-ECDH',
      senderKeyId: SENDER_KEY_ID,
      iteration: 0,
    });
    // About 130 characters of overhead: the double base64 of a JSON header is the price of the format.
    expect(encrypted.length).toBeLessThanOrEqual(140);
    const frame = { type: 'send_message', encryptedContent: encrypted, encryptionType: 'PFS-ECDH' };
    expect(SendMessageFrameSchema.safeParse(frame).success).toBe(true);
  });

  it.each(ENCRYPTION_TYPE_SEQUENCE)(
    '%s: refuses a text whose envelope would exceed 48,000 characters, and fits a 10,000-byte one',
    async (type: MessageEncryptionType) => {
      const sender = senderContext(keys);
      const fits = await encryptMessage(type, 'y'.repeat(10_000), sender);
      expect(fits.length).toBeLessThanOrEqual(MAX_ENCRYPTED_CONTENT_CHARS);
      await expect(encryptMessage(type, 'y'.repeat(40_000), sender)).rejects.toBeInstanceOf(
        EncryptError,
      );
    },
  );

  it('refuses an oversized encryptedContent before decoding it', async () => {
    const huge = 'A'.repeat(MAX_ENCRYPTED_CONTENT_CHARS + 4);
    await expectDecryptError(decryptMessage('E2EE-AES', huge, readerContext(keys)), 'MALFORMED');
  });

  it('refuses unknown fields in the envelope', async () => {
    const encrypted = await encryptMessage('E2EE-AES', 'hi', senderContext(keys));
    const padded = sealEnvelope({ ...openEnvelope(encrypted), note: 'x' });
    await expectDecryptError(decryptMessage('E2EE-AES', padded, readerContext(keys)), 'MALFORMED');
  });
});

describe('delivery through the reader chain', () => {
  it('reads messages of mixed types out of order, each exactly once', async () => {
    const sender = senderContext(keys);
    const sent: [MessageEncryptionType, string, string][] = [];
    for (const type of ENCRYPTION_TYPE_SEQUENCE) {
      const text = `message in ${type}`;
      sent.push([type, text, await encryptMessage(type, text, sender)]);
    }
    const reader = readerContext(keys);
    for (const [type, text, encrypted] of [...sent].reverse()) {
      expect(await decryptMessage(type, encrypted, reader)).toBe(text);
    }
    for (const [type, , encrypted] of sent.filter(([type]) => type !== 'ZK-AES-256')) {
      const error = await expectDecryptError(
        decryptMessage(type, encrypted, reader),
        'KEY_EXPIRED',
      );
      expect(error.message).toBe(TEXT.forwardSecrecyKeyExpired);
    }
  });

  it('needs the chain for every sender-key type: SKc and SKq alone read nothing', async () => {
    const types = ['PFS-ECDH', 'AES-256-GCM', 'AES-256-CBC', 'E2EE-AES', 'quantum'] as const;
    for (const type of types) {
      const encrypted = await encryptMessage(type, 'needs chain', senderContext(keys));
      await expectDecryptError(
        decryptMessage(type, encrypted, readerContext(keys, { chain: null })),
        'KEYS_NOT_INITIALIZED',
      );
    }
  });

  it('keeps every sender-key type sealed from a reader whose chain starts after it (a joiner)', async () => {
    const types = ['PFS-ECDH', 'AES-256-GCM', 'AES-256-CBC', 'E2EE-AES', 'quantum'] as const;
    const sender = senderContext(keys);
    const before: { type: (typeof types)[number]; text: string }[] = [];
    for (const type of types) {
      before.push({ type, text: await encryptMessage(type, 'before the join', sender) });
    }
    // The joiner gets the chain as it stands now, as the key exchange hands it over.
    const snapshot = sender.chain!.snapshot();
    const joiner = readerContext(keys, { chain: new ReceiverChain(snapshot) });
    for (const { type, text } of before) {
      await expectDecryptError(decryptMessage(type, text, joiner), 'KEY_EXPIRED');
    }
    const after = await encryptMessage('E2EE-AES', 'after the join', sender);
    expect(await decryptMessage('E2EE-AES', after, joiner)).toBe('after the join');
  });
});
