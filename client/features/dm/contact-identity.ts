/**
 * Who the other side of a conversation is, as far as this browser can tell (docs/crypto.md,
 * "Direct messages: identities"). The registry's answer (`GET /api/dm/keys/{keyId}`) is checked
 * here and never taken on its word:
 *
 * 1. the fingerprint is recomputed from the ML-DSA-65 and ECDSA P-256 keys it sent;
 * 2. the encryption key must carry a valid ML-DSA-65 signature of that identity;
 * 3. the first fingerprint seen for a keyId is pinned (the identity pin store shared with rooms);
 *    a later, different one is KEY CHANGED: never accepted, sending blocked;
 * 4. the user may compare the safety number with the other person and mark the contact verified;
 *    the mark names the fingerprint compared, so it lapses if the key ever changes.
 */
import { constantTimeEqual, hexToBytes, numbersToBytes } from '../../../shared/crypto/bytes.js';
import {
  verifyEncryptionKey,
  type EncryptionPublicKey,
} from '../../../shared/crypto/dm/encryption-keys.js';
import { computeSafetyNumber } from '../../../shared/crypto/dm/safety-number.js';
import { computeKeyFingerprint } from '../../../shared/crypto/fingerprint.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import { type DmRecipientKey } from '../../../shared/protocol/http/dm.js';
import { type IdentityPinStore } from '../e2ee/index.js';
import { type VerifiedContactStore } from './dm-local-stores.js';

/**
 * - `first-use`: pinned just now; nothing compared yet.
 * - `pinned`: the pinned key, not yet compared by the user.
 * - `verified`: the pinned key, and the user compared the safety number for it.
 * - `changed`: the server now presents another key than the pinned one.
 */
export type ContactTrust = 'first-use' | 'pinned' | 'verified' | 'changed';

export interface ContactIdentity {
  keyId: string;
  username: string;
  secureId: string;
  trust: ContactTrust;
  /** Recomputed here from the keys presented. */
  fingerprint: string;
  /** The pin this check found (null on first use). */
  pinnedFingerprint: string | null;
  dilithiumPublicKey: Uint8Array;
  ecdsaPublicKey: Uint8Array;
  /** Signature-checked; null when the key holder has none registered. */
  encryptionPublicKey: EncryptionPublicKey | null;
  /** With this browser's own identity: 60 digits. */
  safetyNumber: string;
}

/** Our own side of the safety number. */
export interface OwnIdentity {
  keyId: string;
  fingerprint: string;
}

/** The recipient's encryption key did not verify against its identity key. */
export class RecipientKeyUnverifiedError extends Error {
  override readonly name = 'RecipientKeyUnverifiedError';
  constructor() {
    super(TEXT.dmRecipientKeyUnverified);
  }
}

/** The contact's identity key is not the pinned one: nothing is sent or trusted. */
export class KeyChangedError extends Error {
  override readonly name = 'KeyChangedError';
  constructor(readonly keyId: string) {
    super('KEY CHANGED: the identity key of this contact is not the one pinned in this browser');
  }
}

function sameFingerprint(a: string, b: string): boolean {
  return a.length === b.length && constantTimeEqual(hexToBytes(a), hexToBytes(b));
}

/**
 * Checks the registry's answer for `answer.keyId` and pins it on first use. Throws
 * {@link RecipientKeyUnverifiedError} when the answer does not hold together; a changed key is
 * returned as `trust: 'changed'` (the caller refuses to use it).
 */
export function judgeContact(
  answer: DmRecipientKey,
  me: OwnIdentity,
  pins: IdentityPinStore,
  verified: VerifiedContactStore,
): ContactIdentity {
  const dilithiumPublicKey = numbersToBytes(answer.dilithiumPublicKey);
  const ecdsaPublicKey = numbersToBytes(answer.ecdsaPublicKey);
  const fingerprint = computeKeyFingerprint(dilithiumPublicKey, ecdsaPublicKey);
  if (fingerprint !== answer.fingerprint) throw new RecipientKeyUnverifiedError();
  let encryptionPublicKey: EncryptionPublicKey | null = null;
  if (answer.encryptionPublicKey !== null) {
    let isValid = false;
    try {
      isValid =
        answer.encryptionKeySignature !== null &&
        verifyEncryptionKey(
          answer.keyId,
          answer.encryptionPublicKey,
          numbersToBytes(answer.encryptionKeySignature),
          dilithiumPublicKey,
        );
    } catch {
      isValid = false;
    }
    if (!isValid) throw new RecipientKeyUnverifiedError();
    encryptionPublicKey = answer.encryptionPublicKey;
  }

  const pinnedFingerprint = pins.get(answer.keyId);
  let trust: ContactTrust;
  if (pinnedFingerprint === null) {
    pins.set(answer.keyId, fingerprint);
    trust = 'first-use';
  } else if (!sameFingerprint(pinnedFingerprint, fingerprint)) {
    trust = 'changed';
  } else {
    const mark = verified.get(answer.keyId);
    trust = mark !== null && sameFingerprint(mark, fingerprint) ? 'verified' : 'pinned';
  }
  return {
    keyId: answer.keyId,
    username: answer.username,
    secureId: answer.secureId,
    trust,
    fingerprint,
    pinnedFingerprint,
    dilithiumPublicKey,
    ecdsaPublicKey,
    encryptionPublicKey,
    safetyNumber: computeSafetyNumber(me, { keyId: answer.keyId, fingerprint }),
  };
}
