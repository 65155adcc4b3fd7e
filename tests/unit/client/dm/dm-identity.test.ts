/**
 * The browser's judgement of a DM contact and of a thread's message sequence: identities are
 * recomputed and pinned on first use, a changed key is never accepted, the verified mark lapses
 * with the key, the safety number is the same on both sides, and replays, reordering and gaps are
 * named.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  KeyChangedError,
  RecipientKeyUnverifiedError,
  judgeContact,
} from '../../../../client/features/dm/contact-identity.js';
import { MemoryVerifiedStore } from '../../../../client/features/dm/dm-local-stores.js';
import { MessageSequenceLedger } from '../../../../client/features/dm/message-sequence.js';
import { MemoryPinStore } from '../../../../client/features/e2ee/identity-trust.js';
import {
  computeSafetyNumber,
  safetyNumberGroups,
} from '../../../../shared/crypto/dm/safety-number.js';
import { numbersToBytes } from '../../../../shared/crypto/bytes.js';
import { signEncryptionKey } from '../../../../shared/crypto/dm/encryption-keys.js';
import { createKeyFile } from '../../../../shared/crypto/key-file.js';
import { type KeyFile } from '../../../../shared/crypto/key-file-schema.js';
import { secureIdForKey } from '../../../../shared/ids.js';
import { type DmRecipientKey } from '../../../../shared/protocol/http/dm.js';

function answerFor(key: KeyFile, overrides: Partial<DmRecipientKey> = {}): DmRecipientKey {
  return {
    keyId: key.keyId,
    username: key.username,
    secureId: secureIdForKey(key.keyId),
    fingerprint: key.fingerprint,
    dilithiumPublicKey: key.dilithiumPublicKey,
    ecdsaPublicKey: key.ecdsaPublicKey,
    encryptionPublicKey: key.encryptionPublicKey ?? null,
    encryptionKeySignature: key.encryptionKeySignature ?? null,
    ...overrides,
  };
}

describe('DM contact identity', () => {
  let alice: KeyFile;
  let bob: KeyFile;
  let mallory: KeyFile;
  beforeAll(async () => {
    const keys = await Promise.all(
      ['alice', 'bob', 'mallory'].map((username) => createKeyFile({ username })),
    );
    [alice, bob, mallory] = [keys[0]!, keys[1]!, keys[2]!];
  });
  const me = () => ({ keyId: alice.keyId, fingerprint: alice.fingerprint });

  it('pins a first-seen identity, then knows it as pinned and, once compared, verified', () => {
    const pins = new MemoryPinStore();
    const verified = new MemoryVerifiedStore();
    const first = judgeContact(answerFor(bob), me(), pins, verified);
    expect(first.trust).toBe('first-use');
    expect(pins.get(bob.keyId)).toBe(bob.fingerprint);
    expect(judgeContact(answerFor(bob), me(), pins, verified).trust).toBe('pinned');
    verified.set(bob.keyId, first.fingerprint);
    expect(judgeContact(answerFor(bob), me(), pins, verified).trust).toBe('verified');
  });

  it('reports KEY CHANGED for another key under a pinned keyId and never re-pins it', () => {
    const pins = new MemoryPinStore();
    const verified = new MemoryVerifiedStore();
    judgeContact(answerFor(bob), me(), pins, verified);
    verified.set(bob.keyId, bob.fingerprint);
    // The server keeps bob's keyId and name but hands out mallory's keys, self-consistently.
    const substituted = answerFor(mallory, {
      keyId: bob.keyId,
      username: bob.username,
      encryptionKeySignature: Array.from(
        signEncryptionKey(
          bob.keyId,
          mallory.encryptionPublicKey!,
          numbersToBytes(mallory.dilithiumPrivateKey!),
        ),
      ),
    });
    const contact = judgeContact(substituted, me(), pins, verified);
    expect(contact.trust).toBe('changed');
    expect(contact.pinnedFingerprint).toBe(bob.fingerprint);
    expect(pins.get(bob.keyId)).toBe(bob.fingerprint);
    expect(new KeyChangedError(bob.keyId).message).toContain('KEY CHANGED');
  });

  it('refuses a fingerprint that is not the hash of the keys sent', () => {
    const wrong = answerFor(bob, { fingerprint: mallory.fingerprint });
    expect(() =>
      judgeContact(wrong, me(), new MemoryPinStore(), new MemoryVerifiedStore()),
    ).toThrow(RecipientKeyUnverifiedError);
  });

  it("refuses an encryption key not signed by the contact's identity and pins nothing", () => {
    const pins = new MemoryPinStore();
    const swapped = answerFor(bob, {
      encryptionPublicKey: mallory.encryptionPublicKey!,
      encryptionKeySignature: mallory.encryptionKeySignature!,
    });
    expect(() => judgeContact(swapped, me(), pins, new MemoryVerifiedStore())).toThrow(
      RecipientKeyUnverifiedError,
    );
    expect(pins.get(bob.keyId)).toBeNull();
  });

  it('gives both sides the same 60-digit safety number, in twelve groups of five', () => {
    const ab = computeSafetyNumber(alice, bob);
    expect(ab).toMatch(/^\d{60}$/);
    expect(computeSafetyNumber(bob, alice)).toBe(ab);
    expect(safetyNumberGroups(ab)).toHaveLength(12);
    expect(
      computeSafetyNumber(alice, { keyId: bob.keyId, fingerprint: mallory.fingerprint }),
    ).not.toBe(ab);
  });
});

describe('DM message sequence', () => {
  const message = (id: string, counter: number, digest = `sig-${counter}`, sender = 'A') => ({
    id,
    senderKeyId: sender,
    counter,
    digest,
    expiresAt: 10_000,
  });

  it('shows an in-order sequence as normal, and the same answer again as normal', () => {
    const ledger = new MessageSequenceLedger();
    const answer = [message('m1', 1), message('m2', 2), message('b1', 1, 'x', 'B')];
    expect(ledger.judge(answer, 0).map((v) => v.flag)).toEqual(['ok', 'ok', 'ok']);
    expect(ledger.judge(answer, 0).map((v) => v.flag)).toEqual(['ok', 'ok', 'ok']);
  });

  it('names a replay, a reused counter, a reordering and a gap', () => {
    const ledger = new MessageSequenceLedger();
    const verdicts = ledger.judge(
      [
        message('m1', 1),
        message('m1-again', 1),
        message('m3', 3),
        message('m2', 2),
        message('m2b', 2, 'other'),
        message('m6', 6),
      ],
      0,
    );
    expect(verdicts).toEqual([
      { flag: 'ok', missingBefore: 0 },
      { flag: 'replayed', missingBefore: 0 },
      { flag: 'ok', missingBefore: 1 },
      { flag: 'out-of-order', missingBefore: 0 },
      { flag: 'counter-reused', missingBefore: 0 },
      { flag: 'ok', missingBefore: 2 },
    ]);
  });

  it('does not call a message this tab watched expire missing', () => {
    const ledger = new MessageSequenceLedger();
    ledger.judge([message('m1', 1), { ...message('m2', 2), expiresAt: 500 }, message('m3', 3)], 0);
    expect(ledger.judge([message('m1', 1), message('m3', 3)], 1_000)[1]).toEqual({
      flag: 'ok',
      missingBefore: 0,
    });
  });
});
