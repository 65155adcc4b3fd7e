/**
 * The auth context's side of "Remember this key on this device" (docs/crypto.md "Remembered key"):
 * restore, store, open with a passphrase, forget. Loaded on demand by AuthProvider, so neither
 * this nor the sealed store (and zod) is in the entry.
 */
import type { KeyFile } from '../../../shared/crypto/key-file-schema.js';
import type { RememberChoice } from '../../lib/session/auth-context.js';
import {
  forgetRememberedKey,
  indexedDbRememberedKeyStorage as storage,
  openRememberedKey,
  rememberKeyFile,
  rememberedKeySummary,
} from '../../lib/key-file/remembered-key.js';
import { toast } from '../../ui/use-toast.js';

export type Remembered = { mode: 'device' | 'passphrase'; keyFile: KeyFile | null } | null;

/** The remembered copy of `keyId`'s key file: opened when sealed under the device key. */
export async function restoreRemembered(keyId: string): Promise<Remembered> {
  const summary = await rememberedKeySummary(storage);
  if (!summary) return null;
  if (summary.keyId !== keyId) {
    // Remembered for another key than the signed-in one: it has no use here.
    await forgetRememberedKey(storage);
    return null;
  }
  if (summary.mode === 'passphrase') return { mode: 'passphrase', keyFile: null };
  try {
    return { mode: 'device', keyFile: await openRememberedKey(storage) };
  } catch {
    // Damaged or unreadable: forgotten, and the key file is asked for.
    await forgetRememberedKey(storage).catch(() => undefined);
    return null;
  }
}

export async function forgetRemembered(): Promise<void> {
  await forgetRememberedKey(storage);
}

/** Seals `file` into this device's storage when asked to, else erases any earlier copy. */
export async function rememberOrForget(
  file: KeyFile,
  remember: RememberChoice | undefined,
): Promise<'device' | 'passphrase' | null> {
  try {
    if (!remember) {
      await forgetRememberedKey(storage);
      return null;
    }
    await rememberKeyFile(storage, file, remember);
    return remember.passphrase === undefined ? 'device' : 'passphrase';
  } catch (error) {
    toast({
      title: 'Key not remembered',
      description:
        error instanceof Error && error.name === 'RememberedKeyError'
          ? error.message
          : 'This browser could not store the key: load the key file after a reload',
      variant: 'destructive',
    });
    return null;
  }
}

/** The passphrase-sealed key file; throws RememberedKeyError (e.g. `wrong-passphrase`). */
export function openWithPassphrase(passphrase: string): Promise<KeyFile | null> {
  return openRememberedKey(storage, passphrase);
}
