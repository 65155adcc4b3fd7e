/**
 * How far a member's bundle is trusted (docs/crypto-room.md, "In the browser"): its identity
 * signature (bundle-identity.ts), then the pins and the key registry (identity-trust.ts). A member
 * is `verified` here only when the registry confirmed the key; the key manager further requires
 * the relay's roster to mark the session key-authenticated (RoomKeyManager.trustOf). A registry
 * that does not answer leaves the member `unverified`, never trusted. A member once found `bad`
 * stays bad for the session; an identity may not appear, change or vanish within a session either.
 */
import { TEXT } from '../../../shared/protocol/errors.js';
import { type KeyBundle } from '../../../shared/protocol/ws/e2ee.js';
import { checkBundleIdentity, type BundleBinding } from './bundle-identity.js';
import { type CryptoLogLevel } from './crypto-log.js';
import { secureIdOf } from './e2ee-status.js';
import {
  checkIdentityTrust,
  type IdentityPinStore,
  type IdentityRegistry,
} from './identity-trust.js';
import { type MemberTrust, type RoomMember } from './room-members.js';

export interface TrustVerdict {
  trust: MemberTrust;
  /** Why the member is bad; null otherwise (unverified reasons depend on the roster). */
  reason: string | null;
  keyId: string | null;
}

/** Judges a bundle announced by `binding.nodeId` under the relay's name `username`. */
export async function judgeBundle(input: {
  bundle: KeyBundle;
  binding: BundleBinding;
  username: string;
  existing: RoomMember | undefined;
  pins: IdentityPinStore;
  registry: IdentityRegistry | null;
}): Promise<TrustVerdict> {
  const { existing } = input;
  if (existing?.trust === 'bad') {
    return { trust: 'bad', reason: existing.trustReason, keyId: existing.keyId };
  }
  const check = await checkBundleIdentity(input.bundle, input.binding, input.username);
  if (check.status === 'invalid') return { trust: 'bad', reason: check.reason, keyId: null };
  if (check.status === 'anonymous') {
    return existing?.keyId
      ? { trust: 'bad', reason: 'identity removed during the session', keyId: existing.keyId }
      : { trust: 'unverified', reason: null, keyId: null };
  }
  // An anonymous bundle may gain an identity (the key file was loaded); one may not change.
  if (existing?.keyId && existing.keyId !== check.keyId) {
    return { trust: 'bad', reason: 'identity changed during the session', keyId: check.keyId };
  }
  const verdict = await checkIdentityTrust(check, input.pins, input.registry);
  if (verdict.status === 'confirmed')
    return { trust: 'verified', reason: null, keyId: check.keyId };
  return verdict.status === 'unconfirmed'
    ? { trust: 'unverified', reason: verdict.reason, keyId: check.keyId }
    : { trust: 'bad', reason: verdict.reason, keyId: check.keyId };
}

/** The crypto log line for a member's (re-)announced bundle, or null when nothing changed. */
export function trustLogEntry(
  member: RoomMember,
  existing: RoomMember | undefined,
): { level: CryptoLogLevel; text: string } | null {
  const { username, trust } = member;
  if (existing?.trust === trust) {
    return existing.signingKeyText === member.signingKeyText
      ? null
      : { level: 'info', text: `${username} rotated their signature key` };
  }
  if (trust === 'bad') {
    return {
      level: 'error',
      text: `${TEXT.keySubstitutionDetected}: ${username} (${member.trustReason})`,
    };
  }
  if (trust === 'verified') {
    return {
      level: 'success',
      text: `Identity of ${username} verified (${secureIdOf(member.keyId ?? '')})`,
    };
  }
  if (member.keyId) {
    return {
      level: 'warning',
      text: `Key bundle of ${username} claims key ${secureIdOf(member.keyId)}: ${member.trustReason ?? 'unverified'}`,
    };
  }
  return {
    level: 'info',
    text: `Key bundle of ${username} received (no identity signature: unverified)`,
  };
}
