/**
 * The key file the direct-messages screen decrypts with: the one this tab logged in with (held
 * by the auth context), or the one loaded on the unlock step after a reload. Either way it must
 * belong to the signed-in key; anything held for another session is released.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { type KeyFile } from '../../../shared/crypto/key-file-schema.js';
import {
  dmKeyFileSnapshot,
  heldDmKeyFile,
  isHeldForAnotherSession,
  releaseDmKeyFile,
  subscribeDmKeyFile,
} from './dm-key-store.js';

export function useDmKeyFile(
  sessionToken: string | null,
  keyId: string | null,
  loginKeyFile: KeyFile | null,
): KeyFile | null {
  // Re-render whenever the store changes; the value itself is read through heldDmKeyFile.
  useSyncExternalStore(subscribeDmKeyFile, dmKeyFileSnapshot);
  useEffect(() => {
    if (isHeldForAnotherSession(sessionToken)) releaseDmKeyFile();
  }, [sessionToken]);
  if (loginKeyFile && keyId !== null && loginKeyFile.keyId === keyId) return loginKeyFile;
  return heldDmKeyFile(sessionToken, keyId);
}
