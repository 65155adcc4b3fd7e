/**
 * Room access tokens: a correct access code (or creating the room) buys a token that `join_room`
 * and the timer call present instead of the code. Kept in sessionStorage, so it lives as long as
 * the tab and never reaches other tabs or a later visit; the server's grant expires on its own.
 */
/** sessionStorage key prefix; the room's id follows the colon. */
export const ROOM_ACCESS_STORAGE_PREFIX = 'securechannel_room_access:';

/**
 * The server issues 24 random bytes as base64url; anything else in storage is ignored. A pattern
 * rather than a zod schema, so that the room paints without zod (issue 22, target 5).
 */
const ROOM_ACCESS_TOKEN_PATTERN = /^[A-Za-z0-9_-]{1,200}$/;

/** The storage key of one room's token. */
export function roomAccessStorageKey(roomId: string): string {
  return `${ROOM_ACCESS_STORAGE_PREFIX}${roomId}`;
}

/** A stored value as a token, or null when it is missing or not token-shaped. */
export function parseRoomAccessToken(raw: string | null): string | null {
  if (raw === null) return null;
  return ROOM_ACCESS_TOKEN_PATTERN.test(raw) ? raw : null;
}

/** This tab's access token for the room, or null (none stored, storage unavailable, garbage). */
export function getRoomAccessToken(roomId: string): string | null {
  try {
    return parseRoomAccessToken(window.sessionStorage.getItem(roomAccessStorageKey(roomId)));
  } catch {
    return null;
  }
}

/** Remembers the room's access token for this tab; a refused or malformed write is ignored. */
export function setRoomAccessToken(roomId: string, token: string): void {
  if (parseRoomAccessToken(token) === null) return;
  try {
    window.sessionStorage.setItem(roomAccessStorageKey(roomId), token);
  } catch {
    // Storage refused (private mode, quota): the user types the code again next time.
  }
}
