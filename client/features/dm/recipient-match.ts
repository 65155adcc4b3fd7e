/**
 * Who a typed recipient names (spec 001 §5 "New conversation"): the input is upper-cased as it is
 * typed, then matched against the registered users
 *
 * 1. by exact keyId;
 * 2. by secure id, compared case-insensitively;
 * 3. by normalizedSecureId ('SCK_' kept, the rest lowercased).
 *
 * Because the input is upper-cased, a pasted key id (`SCK` + lowercase hex) would never match
 * exactly; it is also compared with 'SCK' kept and the rest lowercased, the key id's own form.
 */
import { normalizeSecureId } from '../../../shared/ids.js';
import { type RegisteredUser } from '../../../shared/protocol/http/auth.js';

/** A secure id (`SCK_` + 8 hex) or a key id (`SCK` + 32 hex), in any case. */
const SECURE_ID_FORMAT = /^SCK_[0-9A-F]{8}$/i;
const KEY_ID_FORMAT = /^SCK[0-9A-F]{32}$/i;

/** The recipient field's own transformation: upper case, no surrounding spaces kept later. */
export function toRecipientInput(value: string): string {
  return value.toUpperCase();
}

/** The local check (first debounce): does the text have the shape of a secure id or key id? */
export function isRecipientFormat(input: string): boolean {
  const value = input.trim();
  return SECURE_ID_FORMAT.test(value) || KEY_ID_FORMAT.test(value);
}

/** The key id form of an upper-cased key id: 'SCK' kept, the hex lowercased. */
function keyIdForm(value: string): string {
  return value.toUpperCase().startsWith('SCK') ? `SCK${value.slice(3).toLowerCase()}` : value;
}

/** The registered user the input names, or null. */
export function findRecipient(
  input: string,
  users: readonly RegisteredUser[],
): RegisteredUser | null {
  const value = input.trim();
  if (value === '') return null;
  const lower = value.toLowerCase();
  const normalized = normalizeSecureId(value);
  const asKeyId = keyIdForm(value);
  return (
    users.find((user) => user.keyId === value) ??
    users.find((user) => user.secureId.toLowerCase() === lower) ??
    users.find((user) => user.normalizedSecureId === normalized) ??
    users.find((user) => user.keyId === asKeyId) ??
    null
  );
}

/** A stored `dm_target_user` value made fit for the recipient field, or null. */
export function parseStoredTarget(value: string | null): string | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.length > 80) return null;
  return toRecipientInput(trimmed);
}
