/**
 * The key-file half of the landing page: choose a file, check it (spec 001 §5), and hand it to the
 * login. On any failure the stored access mode and the temporary key data are removed
 * (spec 001 §4), so a half-finished attempt never leaves the router in authenticated mode.
 */
import { useCallback, useState } from 'react';
import { useLocation } from 'wouter';
import { TEXT } from '../../../shared/protocol/errors.js';
import { clearAccessMode, readAccessMode } from '../../lib/session/access-mode.js';
import { landingLoginFailureText } from '../auth/index.js';
import type { RememberChoice } from '../../lib/session/auth-context.js';
import { useAuth } from '../../lib/session/use-auth.js';
import { toast } from '../../ui/use-toast.js';
import {
  KEY_FILE_UNREADABLE,
  MAX_KEY_FILE_BYTES,
  hasKeyFileExtension,
} from '../../lib/key-file/key-file-name.js';
import type { KeyUploadResult, PendingKey } from '../../lib/key-file/validate-key-upload.js';

export interface LandingKeyUpload {
  /** The chosen file once it passed the landing check, else null. */
  file: File | null;
  /** The parsed key of that file, else null. */
  keyData: PendingKey | null;
  /** The description of the last failure, shown beside the input; null when none. */
  error: string | null;
  /** True while a file is read or the login is being started. */
  isBusy: boolean;
  /** Checks a file; resolves to true when it was accepted. Null clears the choice. */
  selectFile: (file: File | null) => Promise<boolean>;
  /**
   * Checks the key's integrity, logs in with it and enters the public channel; `remember` seals
   * it into this browser (docs/crypto.md "Remembered key").
   */
  authenticate: (remember?: RememberChoice) => Promise<void>;
}

/** Spec 001 §4: a landing failure removes the stored access mode and the temporary key data. */
function forgetLandingAttempt(): void {
  if (readAccessMode() !== null) clearAccessMode();
}

async function readAndValidate(file: File): Promise<KeyUploadResult> {
  try {
    // The check's schema (and zod) loads with the first chosen file, not with the landing page.
    const { validateKeyUpload } = await import('../../lib/key-file/validate-key-upload.js');
    // Check the name and size before reading a single byte of the file.
    if (!hasKeyFileExtension(file.name)) return validateKeyUpload(file.name, '');
    if (file.size > MAX_KEY_FILE_BYTES) return KEY_FILE_UNREADABLE;
    return validateKeyUpload(file.name, await file.text());
  } catch {
    return KEY_FILE_UNREADABLE;
  }
}

export function useLandingKeyUpload(): LandingKeyUpload {
  const [, navigate] = useLocation();
  const { authenticate: login } = useAuth();
  const [file, setFile] = useState<File | null>(null);
  const [keyData, setKeyData] = useState<PendingKey | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  const fail = useCallback((title: string, description: string) => {
    setFile(null);
    setKeyData(null);
    setError(description);
    forgetLandingAttempt();
    toast({ title, description, variant: 'destructive' });
  }, []);

  const selectFile = useCallback(
    async (chosen: File | null): Promise<boolean> => {
      setError(null);
      if (chosen === null) {
        setFile(null);
        setKeyData(null);
        return false;
      }
      setIsBusy(true);
      const result = await readAndValidate(chosen);
      // The integrity check runs at upload, as on the key page (spec 001 §5): a tampered file is
      // refused now, not when AUTHENTICATE is pressed. Its code loads with the first chosen file.
      const checked = result.ok
        ? await import('../../lib/key-file/read-key-file.js')
            .then(({ readKeyFile }) => readKeyFile(chosen, TEXT.invalidFileTypeLanding))
            .catch(() => KEY_FILE_UNREADABLE)
        : null;
      setIsBusy(false);
      if (!result.ok) {
        fail(result.title, result.description);
        return false;
      }
      if (checked && !checked.ok) {
        fail(checked.title, checked.description);
        return false;
      }
      setFile(chosen);
      setKeyData(result.keyData);
      return true;
    },
    [fail],
  );

  const authenticate = useCallback(
    async (remember?: RememberChoice) => {
      if (file === null || keyData === null || isBusy) return;
      setIsBusy(true);
      try {
        // The full parse and integrity check run here, in the browser; the private keys sign the
        // server's challenge and never leave this tab. Their code (the key file's schema, ML-DSA-65)
        // loads with the first upload, not with the landing page.
        const { readKeyFile } = await import('../../lib/key-file/read-key-file.js');
        const checked = await readKeyFile(file, TEXT.invalidFileTypeLanding);
        if (!checked.ok) {
          fail(checked.title, checked.description);
          return;
        }
        const user = await login(checked.keyFile, remember);
        toast({
          title: TEXT.authenticationSuccessful,
          description: `Welcome back, ${user.username}`,
          variant: 'success',
        });
        navigate('/');
      } catch (caught) {
        fail(TEXT.authenticationFailed, landingLoginFailureText(caught));
      } finally {
        setIsBusy(false);
      }
    },
    [fail, file, isBusy, keyData, login, navigate],
  );

  return { file, keyData, error, isBusy, selectFile, authenticate };
}
