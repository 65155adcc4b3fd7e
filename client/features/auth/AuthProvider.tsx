/**
 * The auth state machine (spec 000 §4 "Auth"): loading → the stored session is checked with the
 * server → authenticated, or unauthenticated with the stored session removed.
 *
 * A key holder's key file is held in this tab's memory. When the key was remembered on this
 * device (docs/crypto.md "Remembered key"), a reload opens the sealed copy before the session
 * counts as loaded, so the room identity and direct messages come back without asking; a copy
 * sealed under a passphrase waits for it (`locked`).
 */
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import type { KeyFile } from '../../../shared/crypto/key-file-schema.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import type { SessionUser } from '../../../shared/protocol/http/auth.js';
import { clearAccessMode, setAccessMode } from '../../lib/session/access-mode.js';
import { STORAGE_KEYS, readStorage, removeStorage, writeStorage } from '../../lib/storage-keys.js';
import { toast } from '../../ui/use-toast.js';
import {
  AuthContext,
  type AuthContextValue,
  type AuthState,
  type KeyFileState,
  type RememberChoice,
} from '../../lib/session/auth-context.js';
import { fetchSessionUser, loginWithKeyFile, logoutOnServer } from './auth-api.js';

/** Length of the fade before /landing on logout, in ms. */
export const LOGOUT_FADE_MS = 300;

const SIGNED_OUT: AuthState = {
  isAuthenticated: false,
  sessionToken: null,
  user: null,
  isLoading: false,
  isAuthenticating: false,
};

// The sealed store (and zod with it) loads only for a key holder's session, not with the entry.
const loadRememberedKey = () => import('../../lib/key-file/remembered-key.js');

type Remembered = { mode: 'device' | 'passphrase'; keyFile: KeyFile | null } | null;

/** The remembered copy of `keyId`'s key file: opened when sealed under the device key. */
async function restoreRemembered(keyId: string): Promise<Remembered> {
  const store = await loadRememberedKey();
  const storage = store.indexedDbRememberedKeyStorage;
  const summary = await store.rememberedKeySummary(storage);
  if (!summary) return null;
  if (summary.keyId !== keyId) {
    // Remembered for another key than the signed-in one: it has no use here.
    await store.forgetRememberedKey(storage);
    return null;
  }
  if (summary.mode === 'passphrase') return { mode: 'passphrase', keyFile: null };
  try {
    return { mode: 'device', keyFile: await store.openRememberedKey(storage) };
  } catch {
    // Damaged or unreadable: forgotten, and the key file is asked for.
    await store.forgetRememberedKey(storage).catch(() => undefined);
    return null;
  }
}

async function forgetRemembered(): Promise<void> {
  const store = await loadRememberedKey();
  await store.forgetRememberedKey(store.indexedDbRememberedKeyStorage);
}

/** Seals `file` into this device's storage when asked to, else erases any earlier copy. */
async function rememberOrForget(
  file: KeyFile,
  remember: RememberChoice | undefined,
): Promise<'device' | 'passphrase' | null> {
  try {
    const store = await loadRememberedKey();
    const storage = store.indexedDbRememberedKeyStorage;
    if (!remember) {
      await store.forgetRememberedKey(storage);
      return null;
    }
    await store.rememberKeyFile(storage, file, remember);
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

export function AuthProvider({ children }: { children: ReactNode }) {
  const [, navigate] = useLocation();

  const [state, setState] = useState<AuthState>(() => ({
    ...SIGNED_OUT,
    isLoading: readStorage(STORAGE_KEYS.session) !== null,
  }));
  const [keyFile, setKeyFile] = useState<KeyFile | null>(null);
  const [rememberedMode, setRememberedMode] = useState<'device' | 'passphrase' | null>(null);

  useEffect(() => {
    const token = readStorage(STORAGE_KEYS.session);
    if (!token) return;
    let cancelled = false;
    fetchSessionUser(token)
      .catch(() => undefined)
      .then(async (user) => {
        if (cancelled) return;
        if (user) {
          const remembered = await restoreRemembered(user.keyId).catch(() => null);
          if (cancelled) return;
          setRememberedMode(remembered?.mode ?? null);
          if (remembered?.keyFile) setKeyFile(remembered.keyFile);
        }
        if (user === undefined) {
          // The server could not answer (down, or shut down): signed out for now, the stored
          // session kept for the next load.
          setState(SIGNED_OUT);
          return;
        }
        if (user) {
          setState({
            isAuthenticated: true,
            sessionToken: token,
            user,
            isLoading: false,
            isAuthenticating: false,
          });
        } else {
          removeStorage(STORAGE_KEYS.session);
          setState(SIGNED_OUT);
        }
      });
    return () => {
      cancelled = true;
    };
  }, []);

  const authenticate = useCallback(
    async (file: KeyFile, remember?: RememberChoice): Promise<SessionUser> => {
      setState((previous) => ({ ...previous, isAuthenticating: true }));
      try {
        const { sessionToken, user } = await loginWithKeyFile(file, {
          // The server's login queue is full (503): say so, and that the login goes on by itself.
          onBusy: (seconds) =>
            toast({
              title: TEXT.loginBusy,
              description: `Retrying in ${seconds} s…`,
            }),
        });
        writeStorage(STORAGE_KEYS.session, sessionToken);
        setAccessMode('authenticated');
        setKeyFile(file);
        setRememberedMode(null);
        // A login replaces whatever this device remembered; it remembers again only when asked.
        await rememberOrForget(file, remember);
        setState({
          isAuthenticated: true,
          sessionToken,
          user,
          isLoading: false,
          isAuthenticating: false,
        });
        // The login sound (spec 000 §3 "Sound settings" authSound): plays only when its toggle is on.
        // Loaded here: the settings' schema (zod) is not in the entry (issue 22, target 5).
        void import('../../lib/sounds.js').then(({ playSound }) => playSound('auth'));
        return user;
      } catch (error) {
        // Spec 000 §4: the access mode is removed on failed authentication.
        clearAccessMode();
        setState(SIGNED_OUT);
        throw error;
      }
    },
    [],
  );

  const logout = useCallback(async () => {
    const token = readStorage(STORAGE_KEYS.session);
    if (token) await logoutOnServer(token);
    removeStorage(STORAGE_KEYS.session);
    setKeyFile(null);
    setRememberedMode(null);
    // Logging out also forgets the key on this device (a shared machine is left clean).
    await forgetRemembered().catch(() => undefined);
    setState(SIGNED_OUT);
    document.body.style.transition = `opacity ${LOGOUT_FADE_MS}ms`;
    document.body.style.opacity = '0';
    await new Promise((resolve) => window.setTimeout(resolve, LOGOUT_FADE_MS));
    clearAccessMode();
    navigate('/landing');
    document.body.style.opacity = '';
    document.body.style.transition = '';
  }, [navigate]);

  const loadKeyFile = useCallback(
    (file: KeyFile) => {
      if (!state.user || file.keyId !== state.user.keyId) throw new Error(TEXT.dmWrongKeyFile);
      setKeyFile(file);
    },
    [state.user],
  );

  const unlockRememberedKey = useCallback(
    async (passphrase: string) => {
      const store = await loadRememberedKey();
      const opened = await store.openRememberedKey(store.indexedDbRememberedKeyStorage, passphrase);
      if (!opened || opened.keyId !== state.user?.keyId) {
        setRememberedMode(null);
        return;
      }
      setKeyFile(opened);
    },
    [state.user],
  );

  const forgetKey = useCallback(async () => {
    await forgetRemembered();
    setRememberedMode(null);
    setKeyFile(null);
  }, []);

  const keyFileState: KeyFileState | null = !state.user
    ? null
    : keyFile
      ? 'loaded'
      : state.isLoading
        ? 'restoring'
        : rememberedMode === 'passphrase'
          ? 'locked'
          : 'missing';

  const value = useMemo<AuthContextValue>(
    () => ({
      ...state,
      authenticate,
      logout,
      keyFile,
      loadKeyFile,
      unlockRememberedKey,
      forgetKey,
      keyFileState,
      rememberedMode,
    }),
    [
      state,
      authenticate,
      logout,
      keyFile,
      loadKeyFile,
      unlockRememberedKey,
      forgetKey,
      keyFileState,
      rememberedMode,
    ],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
