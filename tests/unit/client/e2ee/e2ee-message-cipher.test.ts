/**
 * The end-to-end cipher never downgrades on its own (issue 14): without keys a send waits, and a
 * text goes out as the flagged PLAINTEXT type (spec 000 §8) only after the user consented to that
 * one message; an image never does.
 */
import { describe, expect, it } from 'vitest';
import { CryptoLog } from '../../../../client/features/e2ee/crypto-log.js';
import { E2eeMessageCipher } from '../../../../client/features/e2ee/e2ee-message-cipher.js';
import { MemoryPinStore } from '../../../../client/features/e2ee/identity-trust.js';
import { RoomKeyManager } from '../../../../client/features/e2ee/room-key-manager.js';
import {
  PlaintextRefusedError,
  SendCancelledError,
} from '../../../../client/lib/message-cipher.js';
import { TEXT } from '../../../../shared/protocol/errors.js';
import { logText, TestClock, TestRelay } from './e2ee-test-kit.js';

function lonelyCipher() {
  const log = new CryptoLog();
  const manager = new RoomKeyManager({ now: Date.now, log, pins: new MemoryPinStore() });
  return { log, cipher: new E2eeMessageCipher(manager, { joinWaitMs: 50, senderKeyWaitMs: 50 }) };
}

describe('E2eeMessageCipher without keys', () => {
  it('holds a text while no room keys exist, however long, and never sends it in clear', async () => {
    const { cipher, log } = lonelyCipher();
    let outcome: unknown = 'still waiting';
    const abort = new AbortController();
    const send = cipher.encrypt({ v: 1, text: 'hello' }, { signal: abort.signal }).then(
      (sent) => (outcome = sent),
      (error: unknown) => (outcome = error),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(outcome).toBe('still waiting');
    expect(cipher.canEncryptNow()).toBe(false);
    abort.abort();
    await send;
    expect(outcome).toBeInstanceOf(SendCancelledError);
    expect(
      log
        .getEntries()
        .map((entry) => entry.text)
        .join('\n'),
    ).not.toMatch(/PLAINTEXT/);
  });

  it('sends a text as flagged PLAINTEXT only once the user consented to that message', async () => {
    const { cipher, log } = lonelyCipher();
    expect(
      await cipher.encrypt({ v: 1, text: 'hello' }, { plaintextConsent: Promise.resolve() }),
    ).toEqual({
      content: 'hello',
      encryptedContent: null,
      encryptionType: 'PLAINTEXT',
      signature: null,
    });
    const texts = log.getEntries().map((entry) => entry.text);
    expect(texts.some((text) => text.startsWith(TEXT.keysNotInitialized))).toBe(true);
    expect(texts.some((text) => text.includes("PLAINTEXT at the user's request"))).toBe(true);
  });

  it('refuses to send an image without encryption, even with consent', async () => {
    const { cipher } = lonelyCipher();
    const image = {
      url: '/api/secure-images/AAAAAAAAAAAAAAAAAAAAAAAA',
      hasThumbnail: false,
      key: 'a'.repeat(44),
      iv: 'b'.repeat(16),
      thumbnailIv: null,
      name: 'x.png',
      size: 10,
      mime: 'image/png',
    };
    await expect(
      cipher.encrypt({ v: 1, text: '', image }, { plaintextConsent: Promise.resolve() }),
    ).rejects.toBeInstanceOf(PlaintextRefusedError);
  });

  it('carries an image reference inside the ciphertext only', async () => {
    const relay = new TestRelay(new TestClock());
    const alice = await relay.join('Agent1');
    const bob = await relay.join('Agent2');
    const image = {
      url: '/api/secure-images/AAAAAAAAAAAAAAAAAAAAAAAA',
      hasThumbnail: true,
      key: Buffer.alloc(32, 5).toString('base64'),
      iv: Buffer.alloc(12, 6).toString('base64'),
      thumbnailIv: Buffer.alloc(12, 7).toString('base64'),
      name: 'map.png',
      size: 1234,
      mime: 'image/png',
    };
    const message = await relay.send(alice, { v: 1, text: 'see map', image });
    expect(message.encryptedContent).not.toContain(image.key);
    expect(await bob.cipher.decrypt(message)).toMatchObject({
      state: 'decrypted',
      text: 'see map',
      payload: { image },
    });
    expect(logText(alice)).toMatch(/Message encrypted \(PFS-ECDH\) and signed/);
  });
});
