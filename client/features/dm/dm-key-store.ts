/**
 * The key file loaded on the direct-messages screen after a reload ("UNLOCK YOUR
 * CONVERSATIONS"). It lives in this module's memory for the tab's life, tied to the session token
 * it was loaded under, and is never written to localStorage, sessionStorage or IndexedDB: the
 * private keys never leave the tab. (A key the user chose to remember on this device is sealed and
 * kept by the auth context instead: docs/crypto.md "Remembered key".)
 */
import { type KeyFile } from '../../../shared/crypto/key-file-schema.js';

interface Held {
  keyFile: KeyFile;
  sessionToken: string;
}

let held: Held | null = null;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of [...listeners]) listener();
}

/** Holds `keyFile` for the session `sessionToken`. */
export function holdDmKeyFile(keyFile: KeyFile, sessionToken: string): void {
  held = { keyFile, sessionToken };
  emit();
}

/** Forgets the held key file. */
export function releaseDmKeyFile(): void {
  if (held === null) return;
  held = null;
  emit();
}

/** The held key file when it was loaded for this very session and key id; null otherwise. */
export function heldDmKeyFile(sessionToken: string | null, keyId: string | null): KeyFile | null {
  if (!held || held.sessionToken !== sessionToken || held.keyFile.keyId !== keyId) return null;
  return held.keyFile;
}

/** Whether something is held for another session than `sessionToken` (it should be released). */
export function isHeldForAnotherSession(sessionToken: string | null): boolean {
  return held !== null && held.sessionToken !== sessionToken;
}

export function subscribeDmKeyFile(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A value that changes whenever the held key file does, for useSyncExternalStore. */
export function dmKeyFileSnapshot(): Held | null {
  return held;
}
