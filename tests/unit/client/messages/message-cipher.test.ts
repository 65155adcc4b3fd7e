/**
 * The plaintext cipher (spec 000 §4 "Message display", §8): it sends the flagged PLAINTEXT
 * fallback and never pretends to decrypt a message of any other type.
 */
import { describe, expect, it } from 'vitest';
import { EncryptionTypeSchema } from '../../../../shared/protocol/ws/chat.js';
import { PlaintextCipher } from '../../../../client/lib/message-cipher.js';
import { messageFixture } from '../../../support/message-fixture.js';

const base = messageFixture();

describe('PlaintextCipher', () => {
  const cipher = new PlaintextCipher();

  it('says it is not end-to-end and sends text as PLAINTEXT with no ciphertext', async () => {
    expect(cipher.isEndToEnd).toBe(false);
    expect(await cipher.encrypt({ v: 1, text: 'hello' })).toEqual({
      content: 'hello',
      encryptedContent: null,
      encryptionType: 'PLAINTEXT',
      signature: null,
    });
  });

  it('shows a PLAINTEXT message as plaintext', async () => {
    expect(await cipher.decrypt(base)).toEqual({ state: 'plaintext', text: 'hello' });
  });

  it.each(EncryptionTypeSchema.options.filter((type) => type !== 'PLAINTEXT' && type !== 'none'))(
    'shows a %s message as [ENCRYPTED: type] and never its content',
    async (type) => {
      const display = await cipher.decrypt({
        ...base,
        content: '',
        encryptedContent: 'Y2lwaGVy',
        encryptionType: type,
      });
      expect(display).toEqual({ state: 'error', text: `[ENCRYPTED: ${type}]` });
    },
  );
});
