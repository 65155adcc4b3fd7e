/**
 * Room access codes typed in this tab (the create-channel dialog and the access terminal), kept in
 * memory only, by room id, for the room's ZK-AES-256 key (docs/crypto-room.md §7). Never written
 * to storage and never sent: after a reload the tab enters with its access grant and simply does
 * not use (or read) ZK-AES-256 until the code is typed again.
 */
const codes = new Map<string, string>();

/** Remembers the code that opened `roomId` in this tab. */
export function rememberAccessCode(roomId: string, accessCode: string): void {
  if (accessCode.length > 0) codes.set(roomId, accessCode);
}

/** The code typed for `roomId` in this tab, or null. */
export function accessCodeFor(roomId: string): string | null {
  return codes.get(roomId) ?? null;
}

/** True when the room needs an access code (or a key) to enter, as the server decides it. */
export function isRoomLocked(room: { isPrivate: boolean; securityLevel: string }): boolean {
  return room.isPrivate || room.securityLevel !== 'public';
}
