/**
 * The chat page's cipher facade (issue 22, target 5): the room paints before its end-to-end
 * engine has loaded. Meanwhile a send waits and never leaves in clear, frames and reads for the
 * engine are queued and handed over in arrival order once it loads, and an engine that cannot be
 * loaded is an error state (sends fail, encrypted messages stay markers), never plaintext.
 */
import { describe, expect, it, vi } from 'vitest';
import { type CryptoLog } from '../../../../client/features/e2ee/crypto-log.js';
import { E2eeMessageCipher } from '../../../../client/features/e2ee/e2ee-message-cipher.js';
import { MemoryPinStore } from '../../../../client/features/e2ee/identity-trust.js';
import {
  CipherUnavailableError,
  LazyRoomCipher,
  NOT_LOADED_STATUS,
  type RoomEngineLoader,
} from '../../../../client/features/e2ee/lazy-room-cipher.js';
import { type RoomEngine } from '../../../../client/features/e2ee/room-engine.js';
import { RoomKeyManager } from '../../../../client/features/e2ee/room-key-manager.js';
import {
  SendCancelledError,
  type DecryptedMessage,
} from '../../../../client/lib/message-cipher.js';
import { type Message } from '../../../../shared/protocol/ws/chat.js';
import { messageFixture } from '../../../support/message-fixture.js';

/** An engine with real classes and no room: its cipher holds every send until keys exist. */
function testEngine(log: CryptoLog): RoomEngine {
  const manager = new RoomKeyManager({ now: Date.now, log, pins: new MemoryPinStore() });
  return {
    manager,
    cipher: new E2eeMessageCipher(manager, { joinWaitMs: 50, senderKeyWaitMs: 50 }),
    signerFor: () => null,
    registryFor: () => ({ lookup: () => Promise.resolve(null) }),
  };
}

/** A loader the test releases by hand, like a chunk still on its way. */
function heldLoader(onEngine: (engine: RoomEngine) => void = () => undefined) {
  let release: () => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const engines: RoomEngine[] = [];
  const arrived = new Promise<void>((resolve, reject) => {
    release = resolve;
    fail = reject;
  });
  const loader = vi.fn<RoomEngineLoader>(async () => {
    await arrived;
    return {
      createRoomEngine: (log: CryptoLog) => {
        const engine = testEngine(log);
        onEngine(engine);
        engines.push(engine);
        return engine;
      },
    };
  });
  return { loader, release, fail, engines };
}

function message(id: string, encryptionType: Message['encryptionType']): Message {
  const plain = encryptionType === 'PLAINTEXT';
  return messageFixture({
    id,
    senderId: 'node_0000000000000002',
    senderUsername: 'bravo',
    roomId: 'room-under-test',
    content: plain ? 'in clear' : '',
    encryptedContent: plain ? null : 'AAAA',
    encryptionType,
  });
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('LazyRoomCipher', () => {
  it('loads the engine once, and reports loading, then ready', async () => {
    const { loader, release } = heldLoader();
    const cipher = new LazyRoomCipher(loader);
    const states: string[] = [];
    cipher.subscribe(() => states.push(cipher.getLoadState()));
    expect(cipher.getLoadState()).toBe('idle');
    expect(cipher.getStatus()).toBe(NOT_LOADED_STATUS);
    const first = cipher.load();
    const second = cipher.load();
    expect(cipher.getLoadState()).toBe('loading');
    release();
    await Promise.all([first, second]);
    expect(loader).toHaveBeenCalledTimes(1);
    expect(cipher.getLoadState()).toBe('ready');
    expect(states).toEqual(['loading', 'ready']);
    expect(cipher.getStatus().phase).toBe('initializing');
    expect(cipher.engine?.manager).toBeInstanceOf(RoomKeyManager);
  });

  it('holds a send while the engine loads, then hands it to the engine, never in clear', async () => {
    const { loader, release, engines } = heldLoader();
    const cipher = new LazyRoomCipher(loader);
    void cipher.load();
    const abort = new AbortController();
    let outcome: unknown = 'still waiting';
    const send = cipher.encrypt({ v: 1, text: 'hello' }, { signal: abort.signal }).then(
      (sent) => (outcome = sent),
      (error: unknown) => (outcome = error),
    );
    expect(cipher.canEncryptNow()).toBe(false);
    await settle();
    expect(outcome).toBe('still waiting');
    release();
    await settle();
    // The engine's cipher has the send now, and holds it in turn: no room keys yet.
    const engine = engines[0]!;
    expect(cipher.engine).toBe(engine);
    expect(outcome).toBe('still waiting');
    abort.abort();
    await send;
    expect(outcome).toBeInstanceOf(SendCancelledError);
  });

  it('passes sends to the engine in the order they were made', async () => {
    const seen: string[] = [];
    const { loader, release } = heldLoader((engine) => {
      vi.spyOn(engine.cipher, 'encrypt').mockImplementation((payload) => {
        seen.push(payload.text);
        return Promise.resolve({
          content: '',
          encryptedContent: payload.text,
          encryptionType: 'AES-256-GCM',
          signature: null,
        });
      });
    });
    const cipher = new LazyRoomCipher(loader);
    void cipher.load();
    const sends = ['one', 'two', 'three'].map((text) => cipher.encrypt({ v: 1, text }));
    await settle();
    expect(seen).toEqual([]);
    release();
    const sent = await Promise.all(sends);
    expect(seen).toEqual(['one', 'two', 'three']);
    expect(sent.map((outgoing) => outgoing.encryptionType)).toEqual(Array(3).fill('AES-256-GCM'));
  });

  it('cancels a send that waits for the engine without sending anything', async () => {
    const { loader } = heldLoader();
    const cipher = new LazyRoomCipher(loader);
    void cipher.load();
    const abort = new AbortController();
    const send = cipher.encrypt({ v: 1, text: 'hello' }, { signal: abort.signal });
    abort.abort();
    await expect(send).rejects.toBeInstanceOf(SendCancelledError);
  });

  it('hands frames and reads that arrived before the engine over in arrival order', async () => {
    const order: string[] = [];
    const { loader, release, engines } = heldLoader((engine) => {
      vi.spyOn(engine.cipher, 'decrypt').mockImplementation((m: Message) => {
        order.push(`read ${m.id}`);
        return Promise.resolve<DecryptedMessage>({ state: 'decrypted', text: m.id });
      });
    });
    const cipher = new LazyRoomCipher(loader);
    void cipher.load();
    cipher.withEngine(() => order.push('key_bundles'));
    const first = cipher.decrypt(message('m1', 'AES-256-GCM'));
    cipher.withEngine(() => order.push('sender_key'));
    const second = cipher.decrypt(message('m2', 'AES-256-GCM'));
    await settle();
    expect(order).toEqual([]);
    release();
    await expect(first).resolves.toEqual({ state: 'decrypted', text: 'm1' });
    await expect(second).resolves.toEqual({ state: 'decrypted', text: 'm2' });
    expect(order).toEqual(['key_bundles', 'read m1', 'sender_key', 'read m2']);
    // Once loaded, work goes straight to the engine.
    cipher.withEngine((engine) => order.push(engine === engines[0] ? 'direct' : 'other'));
    expect(order.at(-1)).toBe('direct');
  });

  it('turns a failed load into an error state: sends fail, nothing is shown or sent in clear', async () => {
    const { loader, fail } = heldLoader();
    const cipher = new LazyRoomCipher(loader);
    const load = cipher.load();
    const consented = cipher.encrypt(
      { v: 1, text: 'hello' },
      { plaintextConsent: Promise.resolve() },
    );
    const read = cipher.decrypt(message('m1', 'AES-256-GCM'));
    const frame = vi.fn();
    cipher.withEngine(frame);
    fail(new Error('chunk failed to load'));
    await load;
    expect(cipher.getLoadState()).toBe('failed');
    await expect(consented).rejects.toBeInstanceOf(CipherUnavailableError);
    await expect(read).resolves.toEqual({ state: 'error', text: '[ENCRYPTED: AES-256-GCM]' });
    await expect(cipher.encrypt({ v: 1, text: 'later' })).rejects.toBeInstanceOf(
      CipherUnavailableError,
    );
    expect(frame).not.toHaveBeenCalled();
    expect(cipher.engine).toBeNull();
    expect(cipher.canEncryptNow()).toBe(false);
    expect(cipher.log.getEntries().some((entry) => entry.level === 'error')).toBe(true);
    expect(
      cipher.log
        .getEntries()
        .map((entry) => entry.text)
        .join('\n'),
    ).not.toContain('hello');
  });
});
