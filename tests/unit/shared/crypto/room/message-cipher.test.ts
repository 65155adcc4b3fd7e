/**
 * Every one of the seven message types, through the same checks: round trip, one flipped bit in
 * each field rejected, wrong key, wrong room and wrong sender rejected, missing keys reported
 * with the spec's text.
 */
import { describe, expect, it } from 'vitest';
import { TEXT } from '../../../../../shared/protocol/errors.js';
import {
  createReceiverChain,
  createSenderChain,
  decryptMessage,
  DecryptError,
  encryptMessage,
  ENCRYPTION_TYPE_SEQUENCE,
  EncryptError,
  type EnvelopeEncryptionType,
  type MessageEncryptionType,
} from '../../../../../shared/crypto/room/index.js';
import {
  expectDecryptError,
  flipEnvelopeField,
  flipRecipientEntry,
  flipZkPart,
  makeRoomKeys,
  openEnvelope,
  OTHER_MEMBER,
  OTHER_ROOM_ID,
  READER,
  readerContext,
  sealEnvelope,
  SENDER_KEY_ID,
  senderContext,
} from './room-test-kit.js';

const keys = await makeRoomKeys();
const otherKeys = await makeRoomKeys('room test keys, another epoch', 'wrong-access-code');
const TEXT_IN = 'Meet at the usual place — 23:00 ✓';
const ENVELOPE_TYPES = ENCRYPTION_TYPE_SEQUENCE.filter(
  (type): type is EnvelopeEncryptionType => type !== 'ZK-AES-256',
);

/** The fields of each envelope type where a flipped bit must be caught: [field, byte index]. */
const TAMPER_POINTS: Record<EnvelopeEncryptionType, [string, number][]> = {
  'PFS-ECDH': [
    ['iv', 0],
    ['ct', 0],
    ['ct', -1],
  ],
  'E2EE-AES': [
    ['iv', 11],
    ['ct', 3],
    ['ct', -1],
  ],
  quantum: [
    ['iv', 5],
    ['ct', 0],
    ['ct', -16],
  ],
  'AES-256-GCM': [
    ['iv', 0],
    ['ct', 0],
    ['ct', -1],
    ['wiv', 0],
    ['wk', 0],
    ['wk', -1],
  ],
  'AES-256-CBC': [
    ['iv', 0],
    ['ct', 0],
    ['ct', -1],
    ['tag', 0],
    ['tag', -1],
  ],
  'RSA-OAEP': [
    ['iv', 0],
    ['ct', 0],
    ['ct', -1],
  ],
};

async function encryptOne(type: MessageEncryptionType, text = TEXT_IN) {
  return encryptMessage(type, text, senderContext(keys));
}

describe.each(ENCRYPTION_TYPE_SEQUENCE)('message type %s', (type) => {
  it('decrypts what it encrypted, and the ciphertext does not contain the text', async () => {
    const sender = senderContext(keys);
    const reader = readerContext(keys);
    for (const text of [TEXT_IN, '', 'second message', 'x'.repeat(5000)]) {
      const encrypted = await encryptMessage(type, text, sender);
      expect(encrypted).not.toContain(text || 'never-empty');
      expect(await decryptMessage(type, encrypted, reader)).toBe(text);
    }
  });

  it('gives two encryptions of one text different ciphertexts', async () => {
    const sender = senderContext(keys);
    expect(await encryptMessage(type, TEXT_IN, sender)).not.toBe(
      await encryptMessage(type, TEXT_IN, sender),
    );
  });

  it('rejects a wrong key with AUTH_FAILED', async () => {
    const encrypted = await encryptOne(type);
    const wrong = readerContext(otherKeys, {
      senderKeyId: SENDER_KEY_ID,
      chain: createReceiverChain(SENDER_KEY_ID, otherKeys.classicKey),
      rsa: { nodeId: READER, privateKey: keys.otherRsa.privateKey },
    });
    await expectDecryptError(decryptMessage(type, encrypted, wrong), 'AUTH_FAILED');
  });

  it('rejects the ciphertext replayed into another room', async () => {
    const encrypted = await encryptOne(type);
    const elsewhere = readerContext(keys, { roomId: OTHER_ROOM_ID, zkKey: keys.otherRoomZkKey });
    await expectDecryptError(decryptMessage(type, encrypted, elsewhere), 'AUTH_FAILED');
  });

  it('refuses to decrypt without its keys, with the spec text', async () => {
    const encrypted = await encryptOne(type);
    const bare = readerContext(keys, {
      senderKeyId: type === 'RSA-OAEP' ? SENDER_KEY_ID : null,
      chain: null,
      classicKey: null,
      quantumKey: null,
      rsa: null,
      zkKey: null,
    });
    const error = await expectDecryptError(
      decryptMessage(type, encrypted, bare),
      'KEYS_NOT_INITIALIZED',
    );
    expect(error.message).toBe(TEXT.keysNotInitialized);
  });

  it('refuses to encrypt without its keys, with the spec text', async () => {
    const bare = senderContext(keys, {
      chain: null,
      classicKey: null,
      quantumKey: null,
      rsaRecipients: null,
      zkKey: null,
    });
    const failure = encryptMessage(type, TEXT_IN, bare);
    await expect(failure).rejects.toBeInstanceOf(EncryptError);
    await expect(failure).rejects.toThrow(TEXT.keysNotInitialized);
  });
});

describe.each(ENVELOPE_TYPES)('envelope type %s', (type) => {
  it.each(TAMPER_POINTS[type])('rejects one flipped bit in %s (byte %i)', async (field, index) => {
    const encrypted = await encryptOne(type);
    const reader = readerContext(keys);
    const tampered = flipEnvelopeField(encrypted, field, index);
    await expectDecryptError(decryptMessage(type, tampered, reader), 'AUTH_FAILED');
    // The forgery consumed nothing: the genuine message still decrypts.
    expect(await decryptMessage(type, encrypted, reader)).toBe(TEXT_IN);
  });

  it('rejects the message attributed to another sender', async () => {
    const encrypted = await encryptOne(type);
    const misattributed = readerContext(keys, { senderNodeId: OTHER_MEMBER });
    await expectDecryptError(decryptMessage(type, encrypted, misattributed), 'AUTH_FAILED');
  });

  it('rejects a changed iteration (bound by the AAD and the key)', async () => {
    const envelope = await encryptOne(type);
    const edited = sealEnvelope({ ...openEnvelope(envelope), i: 1 });
    await expectDecryptError(decryptMessage(type, edited, readerContext(keys)), 'AUTH_FAILED');
  });

  it('rejects the envelope presented under another type', async () => {
    const encrypted = await encryptOne(type);
    const otherType = type === 'E2EE-AES' ? 'quantum' : 'E2EE-AES';
    await expectDecryptError(
      decryptMessage(otherType, encrypted, readerContext(keys)),
      'MALFORMED',
    );
  });
});

describe('type relabelling', () => {
  it('rejects an E2EE-AES envelope relabelled as quantum even when SKq equals SKc', async () => {
    const encrypted = await encryptOne('E2EE-AES');
    const relabelled = sealEnvelope({ ...openEnvelope(encrypted), t: 'quantum' });
    const reader = readerContext(keys, { quantumKey: keys.classicKey });
    await expectDecryptError(decryptMessage('quantum', relabelled, reader), 'AUTH_FAILED');
  });
});

describe('every type but RSA-OAEP and ZK-AES-256', () => {
  it.each(ENVELOPE_TYPES.filter((type) => type !== 'RSA-OAEP'))(
    '%s names the sender key, and a reader of another epoch gets the key-rotation text',
    async (type) => {
      const encrypted = await encryptOne(type);
      const nextEpoch = readerContext(keys, {
        senderKeyId: 'epoch0002',
        chain: createReceiverChain('epoch0002', keys.classicKey),
      });
      const error = await expectDecryptError(
        decryptMessage(type, encrypted, nextEpoch),
        'KEY_ROTATED',
      );
      expect(error.message).toBe(TEXT.keyRotationUndecryptable);
    },
  );
});

describe('RSA-OAEP recipients', () => {
  it('lets every listed member read, and tells others they are not a recipient', async () => {
    const encrypted = await encryptOne('RSA-OAEP');
    const other = readerContext(keys, {
      chain: null,
      rsa: { nodeId: OTHER_MEMBER, privateKey: keys.otherRsa.privateKey },
    });
    expect(await decryptMessage('RSA-OAEP', encrypted, other)).toBe(TEXT_IN);
    const outsider = readerContext(keys, {
      rsa: { nodeId: 'node_dddddddddddddddd', privateKey: keys.otherRsa.privateKey },
    });
    await expectDecryptError(decryptMessage('RSA-OAEP', encrypted, outsider), 'NOT_A_RECIPIENT');
  });

  it('rejects one flipped bit in the reader’s wrapped key', async () => {
    const encrypted = await encryptOne('RSA-OAEP');
    const tampered = flipRecipientEntry(encrypted, READER);
    await expectDecryptError(
      decryptMessage('RSA-OAEP', tampered, readerContext(keys)),
      'AUTH_FAILED',
    );
  });

  it('rejects a wrapped key moved to another member’s entry', async () => {
    const envelope = openEnvelope(await encryptOne('RSA-OAEP'));
    // The test made this envelope: rk is its node-id → base64 map.
    const entries = envelope.rk as Record<string, string>;
    const swapped = sealEnvelope({
      ...envelope,
      rk: { ...entries, [READER]: entries[OTHER_MEMBER] },
    });
    await expectDecryptError(
      decryptMessage('RSA-OAEP', swapped, readerContext(keys)),
      'AUTH_FAILED',
    );
  });
});

describe('ZK-AES-256 tampering', () => {
  it.each([
    [0, 0],
    [0, 11],
    [1, 0],
    [1, -1],
  ] as const)('rejects one flipped bit in part %i (byte %i)', async (part, index) => {
    const encrypted = await encryptOne('ZK-AES-256');
    const tampered = flipZkPart(encrypted, part, index);
    await expectDecryptError(
      decryptMessage('ZK-AES-256', tampered, readerContext(keys)),
      'AUTH_FAILED',
    );
  });

  it('does not bind the sender: the spec’s format has no room for AAD (documented limit)', async () => {
    const encrypted = await encryptOne('ZK-AES-256');
    const misattributed = readerContext(keys, { senderNodeId: OTHER_MEMBER });
    expect(await decryptMessage('ZK-AES-256', encrypted, misattributed)).toBe(TEXT_IN);
  });
});

describe('sender chain', () => {
  it('moves one iteration per message of any type but ZK-AES-256', async () => {
    const chain = createSenderChain(SENDER_KEY_ID, keys.classicKey);
    const sender = senderContext(keys, { chain });
    for (const type of ENCRYPTION_TYPE_SEQUENCE) await encryptMessage(type, TEXT_IN, sender);
    expect(chain.iteration).toBe(6);
  });

  it('reports a DecryptError, never a plain Error, for garbage input', async () => {
    for (const type of ENCRYPTION_TYPE_SEQUENCE) {
      for (const garbage of ['', 'not base64!', 'e30=', 'a:b:c', '::']) {
        await expect(decryptMessage(type, garbage, readerContext(keys))).rejects.toBeInstanceOf(
          DecryptError,
        );
      }
    }
  });
});
