/**
 * The top-secret invite link (spec 000 §2): origin/room/{secureId}?auth={encoded room name and
 * timestamp}.
 *
 * The `auth` parameter carries only the room's name and the time the link was made, as the spec
 * says, base64 of JSON. It is not a credential and grants nothing: whoever opens the link still
 * meets the access terminal and needs the access code (or a key). Never put a token or the code
 * in the path or the query, since those reach the server's access logs.
 *
 * The inviter may choose to put the access code in the fragment (`#code=…`,
 * lib/rooms/invite-fragment.ts): browsers never send a fragment, and the joining page removes it
 * from the address as soon as it has read it. Such a link is then a key to the room by itself.
 */
import { inviteCodeFragment } from '../../lib/rooms/invite-fragment.js';

/** Base64 of the UTF-8 bytes of `text` (btoa alone throws on characters beyond Latin-1). */
export function utf8ToBase64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * The invite link of a room, made at `now` (ms since the epoch); with `accessCode`, the code rides
 * in the fragment.
 */
export function buildInviteLink(
  origin: string,
  room: { secureId: string; name: string },
  now: number,
  accessCode: string | null = null,
): string {
  const auth = utf8ToBase64(JSON.stringify({ room: room.name, ts: now }));
  const fragment = accessCode ? inviteCodeFragment(accessCode) : '';
  return `${origin}/room/${room.secureId}?auth=${encodeURIComponent(auth)}${fragment}`;
}
