/**
 * Identifier helpers that need no zod, so that the chat page checks its address and names keys
 * without loading it (`shared/ids.ts` builds `RoomSecureIdSchema` on the pattern and re-exports
 * the functions).
 */
import { CALLSIGN_MAX_NUMBER, CALLSIGN_PREFIXES } from './constants.js';

/** A room's secure id: 64 lowercase hex digits (32 random bytes). */
export const ROOM_SECURE_ID_PATTERN = /^[0-9a-f]{64}$/;

/** True when `value` has the shape of a room secure id; only such ids are looked up (spec 000 §4). */
export function isRoomSecureId(value: string): boolean {
  return ROOM_SECURE_ID_PATTERN.test(value);
}

/**
 * A key holder's secure id: `SCK_` and characters 3 to 10 of the key id, upper-cased
 * (spec 001 §2: "SCK_ plus the upper-cased characters 3 to 10 of keyId").
 */
export function secureIdForKey(keyId: string): string {
  return `SCK_${keyId.slice(3, 11).toUpperCase()}`;
}

/** A public visitor's callsign: one of the prefixes followed by 1 to 9999 (spec 000 §1). */
export const CALLSIGN_PATTERN = new RegExp(`^(${CALLSIGN_PREFIXES.join('|')})([1-9][0-9]{0,3})$`);

/** A uniformly random callsign. */
export function generateCallsign(): string {
  const values = new Uint32Array(2);
  globalThis.crypto.getRandomValues(values);
  const prefix = CALLSIGN_PREFIXES[values[0]! % CALLSIGN_PREFIXES.length]!;
  const number = (values[1]! % CALLSIGN_MAX_NUMBER) + 1;
  return `${prefix}${number}`;
}
