/**
 * The other members of the room as this browser knows them from their key bundles: their session
 * public keys, their message-signing keys (the current one and, for one rotation period, the
 * previous ones) and how far their identity is trusted.
 */
import { SIGNATURE_KEY_ROTATION_MS } from '../../../shared/constants.js';
import { base64ToBytes } from '../../../shared/crypto/bytes.js';
import { ML_DSA_65_PUBLIC_KEY_BYTES } from '../../../shared/constants.js';
import { isEcdsaPublicKey } from '../../../shared/crypto/ecdsa-p256.js';
import {
  importRsaPublicKey,
  ML_KEM_768_PUBLIC_KEY_BYTES,
  type WebCryptoKey,
} from '../../../shared/crypto/room/index.js';
import { type KeyBundle } from '../../../shared/protocol/ws/e2ee.js';
import { type MemberStatus, type MemberTrust } from './e2ee-status.js';

// The trust levels live with the status they are shown in (e2ee-status.ts); re-exported here.
export type { MemberTrust } from './e2ee-status.js';

export interface MemberSigningKey {
  publicKey: Uint8Array;
  /** null for the current key; else when it stops being accepted. */
  validUntil: number | null;
}

export interface RoomMember {
  nodeId: string;
  username: string;
  ecdhPublicKey: Uint8Array;
  kemPublicKey: Uint8Array;
  rsaPublicKey: WebCryptoKey;
  /** The bundle's `ecdh ‖ kem ‖ rsa` text: changes only with a new session. */
  sessionKeysTag: string;
  /** The bundle's current `sig` text, to tell a re-announce with a new signing key. */
  signingKeyText: string;
  signingKeys: MemberSigningKey[];
  trust: MemberTrust;
  /** Why the member is `bad` or `unverified`, in words for the details panel. */
  trustReason: string | null;
  /** The key holder's keyId when the bundle carries an identity. */
  keyId: string | null;
  /** The ZK key check value the member announced (it typed the access code), or null. */
  zkCheck: string | null;
}

/** The public keys of a bundle, checked for size and form. */
export interface BundleKeys {
  ecdhPublicKey: Uint8Array;
  kemPublicKey: Uint8Array;
  rsaPublicKey: WebCryptoKey;
  signingPublicKey: Uint8Array;
  sessionKeysTag: string;
}

/** A bundle's keys, or null when one is malformed. */
export async function readBundleKeys(bundle: KeyBundle): Promise<BundleKeys | null> {
  try {
    const ecdhPublicKey = base64ToBytes(bundle.ecdh);
    const kemPublicKey = base64ToBytes(bundle.kem);
    const signingPublicKey = base64ToBytes(bundle.sig);
    if (!isEcdsaPublicKey(ecdhPublicKey)) return null;
    if (kemPublicKey.length !== ML_KEM_768_PUBLIC_KEY_BYTES) return null;
    if (signingPublicKey.length !== ML_DSA_65_PUBLIC_KEY_BYTES) return null;
    const rsaPublicKey = await importRsaPublicKey(base64ToBytes(bundle.rsa));
    return {
      ecdhPublicKey,
      kemPublicKey,
      rsaPublicKey,
      signingPublicKey,
      sessionKeysTag: `${bundle.ecdh}|${bundle.kem}|${bundle.rsa}`,
    };
  } catch {
    return null;
  }
}

/** The signing keys after a (re-)announce: a new key becomes current, the old one has a grace. */
export function nextSigningKeys(
  previous: readonly MemberSigningKey[],
  signingPublicKey: Uint8Array,
  now: number,
): MemberSigningKey[] {
  const isSame = (key: MemberSigningKey) =>
    key.publicKey.length === signingPublicKey.length &&
    key.publicKey.every((byte, index) => byte === signingPublicKey[index]);
  const kept = previous
    .filter((key) => !isSame(key))
    .map((key) => ({ ...key, validUntil: key.validUntil ?? now + SIGNATURE_KEY_ROTATION_MS }))
    .filter((key) => key.validUntil > now);
  return [{ publicKey: signingPublicKey, validUntil: null }, ...kept];
}

/** The signing keys a message from this member may be verified with right now. */
export function acceptedSigningKeys(member: RoomMember, now: number): Uint8Array[] {
  return member.signingKeys
    .filter((key) => key.validUntil === null || key.validUntil > now)
    .map((key) => key.publicKey);
}

/** The member a bundle describes, still `checking` (the caller sets the trust verdict). */
export function memberFromBundle(input: {
  nodeId: string;
  username: string;
  bundle: KeyBundle;
  keys: BundleKeys;
  existing: RoomMember | undefined;
  now: number;
}): RoomMember {
  const { keys, existing } = input;
  return {
    nodeId: input.nodeId,
    username: input.username,
    ecdhPublicKey: keys.ecdhPublicKey,
    kemPublicKey: keys.kemPublicKey,
    rsaPublicKey: keys.rsaPublicKey,
    sessionKeysTag: keys.sessionKeysTag,
    signingKeyText: input.bundle.sig,
    signingKeys: nextSigningKeys(existing?.signingKeys ?? [], keys.signingPublicKey, input.now),
    trust: 'checking',
    trustReason: null,
    keyId: null,
    zkCheck: input.bundle.zk ?? null,
  };
}

const UNVERIFIED_ANONYMOUS = 'anonymous member: no key file';
const UNVERIFIED_KEY_HOLDER = 'key holder without a loaded key file: they should reload it';

/** A member as the status shows it: an unverified member's reason depends on the roster. */
export function memberStatus(
  member: RoomMember,
  context: { isKeyHolder: boolean; hasSenderKey: boolean },
): MemberStatus {
  const unverifiedReason = context.isKeyHolder ? UNVERIFIED_KEY_HOLDER : UNVERIFIED_ANONYMOUS;
  return {
    nodeId: member.nodeId,
    username: member.username,
    trust: member.trust,
    trustReason:
      member.trust === 'unverified' ? (member.trustReason ?? unverifiedReason) : member.trustReason,
    keyId: member.keyId,
    hasSenderKey: context.hasSenderKey,
  };
}
