/**
 * The creator's signed statement of a direct-message thread (docs/crypto.md, "Direct messages:
 * thread grant"). The creator's browser picks the thread id and the thread key, and signs, with
 * its identity keys (ML-DSA-65 and ECDSA P-256, as at login), who the thread is between, in which
 * mode, and which thread key it holds. Each participant checks the statement against the
 * creator's PINNED identity before it uses the key: a server that wraps a key of its own "from
 * alice", swaps the mode, or moves a key to another thread is refused.
 *
 * ```
 * commitment = HMAC-SHA-256(key = threadKey,
 *                           msg = encode("securechannel/v1/dm/key-commitment", [threadId]))
 * signed     = encode("securechannel/v1/dm/thread",
 *                     [threadId, mode, creatorKeyId, creatorFingerprint (32 bytes),
 *                      recipientKeyId, recipientFingerprint (32 bytes), commitment (32 bytes)])
 * signature  = { mlDsa: base64(ML-DSA-65(signed), 3309 bytes),
 *                ecdsa: base64(ECDSA-P256-SHA256(signed), 64 bytes r ‖ s) }
 * ```
 * `encode` is {@link encodeSignedFields}. Both signatures must verify.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base64ToBytes, bytesToBase64, constantTimeEqual, hexToBytes } from '../bytes.js';
import { signEcdsa, verifyEcdsa } from '../ecdsa-p256.js';
import { signMlDsa, verifyMlDsa } from '../ml-dsa.js';
import { encodeSignedFields } from './signed-fields.js';

/** The only thread mode: the key is made and wrapped in the creator's browser. */
export const DM_THREAD_MODE = 'e2e';
export type DmThreadMode = typeof DM_THREAD_MODE;

/** What the creator signs about a thread. Fingerprints are 64 lowercase hex digits. */
export interface ThreadStatement {
  threadId: string;
  mode: string;
  creatorKeyId: string;
  creatorFingerprint: string;
  recipientKeyId: string;
  recipientFingerprint: string;
  /** base64 of the 32-byte key commitment. */
  keyCommitment: string;
}

/** The two identity signatures, base64. */
export interface ThreadSignature {
  mlDsa: string;
  ecdsa: string;
}

/** HMAC-SHA-256 commitment to `threadKey` for `threadId`, base64. */
export function threadKeyCommitment(threadKey: Uint8Array, threadId: string): string {
  const message = encodeSignedFields('securechannel/v1/dm/key-commitment', [threadId]);
  return bytesToBase64(hmac(sha256, threadKey, message));
}

/** True when `threadKey` is the key the statement's commitment names. */
export function isCommittedThreadKey(
  threadKey: Uint8Array,
  statement: Pick<ThreadStatement, 'threadId' | 'keyCommitment'>,
): boolean {
  try {
    const expected = base64ToBytes(threadKeyCommitment(threadKey, statement.threadId));
    const given = base64ToBytes(statement.keyCommitment);
    return given.length === expected.length && constantTimeEqual(given, expected);
  } catch {
    return false;
  }
}

/** The bytes both signatures cover. */
export function threadStatementBytes(statement: ThreadStatement): Uint8Array {
  return encodeSignedFields('securechannel/v1/dm/thread', [
    statement.threadId,
    statement.mode,
    statement.creatorKeyId,
    hexToBytes(statement.creatorFingerprint),
    statement.recipientKeyId,
    hexToBytes(statement.recipientFingerprint),
    base64ToBytes(statement.keyCommitment),
  ]);
}

/** Signs the statement with the creator's ML-DSA-65 and ECDSA P-256 private keys. */
export async function signThreadStatement(
  statement: ThreadStatement,
  keys: { dilithiumPrivateKey: Uint8Array; ecdsaPrivateKey: Uint8Array },
): Promise<ThreadSignature> {
  const bytes = threadStatementBytes(statement);
  return {
    mlDsa: bytesToBase64(signMlDsa(bytes, keys.dilithiumPrivateKey)),
    ecdsa: bytesToBase64(await signEcdsa(bytes, keys.ecdsaPrivateKey)),
  };
}

/** True only when both signatures verify under the creator's (pinned) public keys. */
export async function verifyThreadStatement(
  statement: ThreadStatement,
  signature: ThreadSignature,
  creator: { dilithiumPublicKey: Uint8Array; ecdsaPublicKey: Uint8Array },
): Promise<boolean> {
  let bytes: Uint8Array;
  let mlDsa: Uint8Array;
  let ecdsa: Uint8Array;
  try {
    bytes = threadStatementBytes(statement);
    mlDsa = base64ToBytes(signature.mlDsa);
    ecdsa = base64ToBytes(signature.ecdsa);
  } catch {
    return false;
  }
  if (!verifyMlDsa(mlDsa, bytes, creator.dilithiumPublicKey)) return false;
  return verifyEcdsa(ecdsa, bytes, creator.ecdsaPublicKey);
}
