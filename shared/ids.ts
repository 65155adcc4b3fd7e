/**
 * Identifier formats shared by client and server (DESIGN.md, "Wire formats").
 * Generators draw from `globalThis.crypto`, which Node 20 and every browser provide.
 */
import { z } from 'zod';
import { toHex } from './crypto/bytes.js';
import {
  CALLSIGN_PATTERN,
  ROOM_SECURE_ID_PATTERN,
  generateCallsign,
  isRoomSecureId,
  secureIdForKey,
} from './id-shapes.js';

const HEX_32 = /^[0-9a-f]{32}$/;

/** Lowercase hex of the given bytes (defined in `shared/crypto/bytes.ts`). */
export { toHex };

/** `count` cryptographically random bytes. */
export function randomBytes(count: number): Uint8Array {
  const bytes = new Uint8Array(count);
  globalThis.crypto.getRandomValues(bytes);
  return bytes;
}

/** A room's secure id: 64 lowercase hex digits (32 random bytes). */
export const RoomSecureIdSchema = z.string().regex(ROOM_SECURE_ID_PATTERN, 'Invalid secure id');
export type RoomSecureId = z.infer<typeof RoomSecureIdSchema>;

/** Whether a value has a room secure id's shape (defined in `shared/id-shapes.ts`). */
export { isRoomSecureId };

/** A new room secure id. */
export function generateRoomSecureId(): RoomSecureId {
  return toHex(randomBytes(32));
}

/** A key id: `SCK` followed by 32 lowercase hex digits. */
/** True for a key id: `SCK` and 32 lowercase hex digits (KeyIdSchema's rule). */
export function isKeyId(value: string): boolean {
  return value.length === 35 && value.startsWith('SCK') && HEX_32.test(value.slice(3));
}

export const KeyIdSchema = z.string().refine(isKeyId, 'Invalid key id');
export type KeyId = z.infer<typeof KeyIdSchema>;

/** A user id: `USR` followed by 32 hex digits. */
export const UserIdSchema = z
  .string()
  .refine(
    (value) => value.startsWith('USR') && /^[0-9a-fA-F]{32}$/.test(value.slice(3)),
    'Invalid user id',
  );
export type UserId = z.infer<typeof UserIdSchema>;

/** A new key id. */
export function generateKeyId(): KeyId {
  return `SCK${toHex(randomBytes(16))}`;
}

/** A new user id. */
export function generateUserId(): UserId {
  return `USR${toHex(randomBytes(16))}`;
}

/** A key holder's secure id (defined in `shared/id-shapes.ts`). */
export { secureIdForKey };

/** The normalized form of a secure id: `SCK_` kept, the rest lowercased (spec 001 §5). */
export function normalizeSecureId(secureId: string): string {
  const upper = secureId.trim();
  if (upper.toUpperCase().startsWith('SCK_')) return `SCK_${upper.slice(4).toLowerCase()}`;
  return upper.toLowerCase();
}

/** A public visitor's callsign: one of the prefixes followed by 1 to 9999 (spec 000 §1). */
export const CallsignSchema = z.string().regex(CALLSIGN_PATTERN, 'Invalid callsign');

/** {@link CallsignSchema}'s check without a schema run (every anonymous join asks it). */
export function isCallsign(value: string): boolean {
  return CALLSIGN_PATTERN.test(value);
}

/** A uniformly random callsign (defined in `shared/id-shapes.ts`). */
export { generateCallsign };
