/** Local storage keys, exactly as the specs name them (spec 000 §9, spec 001 §3). */
export const STORAGE_KEYS = {
  theme: 'secure-channel-theme',
  session: 'securechannel_session',
  accessMode: 'securechannel_access_mode',
  callsign: 'chat-username',
  soundSettings: 'chat-sound-settings',
  pinnedCertificates: 'pinnedCertificates',
  dmTargetUser: 'dm_target_user',
  /** Voice disguise, devices and call volume (not named by the spec; this browser only). */
  voiceSettings: 'securechannel-voice',
  /** The private channels this browser created or joined (not named by the spec; this browser only). */
  knownRooms: 'securechannel_known_rooms',
} as const;

/** Reads a key; null when storage is unavailable (private modes, disabled storage). */
export function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Writes a key; returns false when storage refuses. */
export function writeStorage(key: string, value: string): boolean {
  try {
    window.localStorage.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

export function removeStorage(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Nothing stored, nothing to remove.
  }
}
