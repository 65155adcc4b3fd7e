/** How the admin key list shows each key (spec 001 §2 "Key Management", §3 "Admin key list item"). */
import { isKeyExpired, type KeyPermissionLevel } from '../../../shared/crypto/key-file-schema.js';
import { type AdminKeyList } from '../../../shared/protocol/http/auth.js';

export type AdminKey = AdminKeyList['keys'][number];

/** A key is revoked (whatever its date), expired, or active. */
export type KeyState = 'active' | 'expired' | 'revoked';

export function keyState(key: Pick<AdminKey, 'revoked' | 'expires'>, now: Date): KeyState {
  if (key.revoked) return 'revoked';
  return isKeyExpired(key.expires, now) ? 'expired' : 'active';
}

/** `NEVER` for a key without expiry, otherwise `YYYY-MM-DD HH:MM UTC`. */
export function formatKeyExpiry(expires: string | null): string {
  if (expires === null) return 'NEVER';
  const date = new Date(expires);
  if (Number.isNaN(date.getTime())) return 'INVALID DATE';
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** `SCK1a2b3c4d…9f0e`: enough of a key id to tell keys apart in a narrow column. */
export function shortKeyId(keyId: string): string {
  return keyId.length <= 16 ? keyId : `${keyId.slice(0, 11)}…${keyId.slice(-4)}`;
}

/** Badge tone of a level: admin is shown as destructive (spec 001 §2). */
export function levelTone(level: KeyPermissionLevel): 'danger' | 'accent' | 'muted' {
  if (level === 'admin') return 'danger';
  return level === 'user' ? 'accent' : 'muted';
}

const STATE_ORDER: Record<KeyState, number> = { active: 0, expired: 1, revoked: 2 };

/** Active keys first, then expired, then revoked; within each, newest first. */
export function sortKeysForDisplay(keys: readonly AdminKey[], now: Date): AdminKey[] {
  return [...keys].sort(
    (a, b) =>
      STATE_ORDER[keyState(a, now)] - STATE_ORDER[keyState(b, now)] ||
      Date.parse(b.createdAt) - Date.parse(a.createdAt),
  );
}

/** Counts per state, for the list's summary line. */
export function countKeyStates(keys: readonly AdminKey[], now: Date): Record<KeyState, number> {
  const counts: Record<KeyState, number> = { active: 0, expired: 0, revoked: 0 };
  for (const key of keys) counts[keyState(key, now)] += 1;
  return counts;
}
