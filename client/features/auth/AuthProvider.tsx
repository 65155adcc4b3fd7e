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
import { fetchSessionUser, logoutOnServer } from './auth-api.js';

/** Length of the fade before /landing on logout, in ms. */
export const LOGOUT_FADE_MS = 300;

const SIGNED_OUT: AuthState = {
  isAuthenticated: false,
  sessionToken: null,
  user: null,
  isLoading: false,
  isAuthenticating: false,
};

// The remembered key's code (and zod with it) loads only when needed, not with the entry.
const loadRemembered = () => import('./remembered-session.js');

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
          const remembered = await loadRemembered()
            .then((module) => module.restoreRemembered(user.keyId))
            .catch(() => null);
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
        // The login's code (signing, the socket, the routes) loads with the first login.
        const { loginWithKeyFile } = await import('./key-login.js');
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
        // A login replaces whatever this device remembered; it remembers again only when asked.
        const remembered = await loadRemembered().then(
          (module) => module.rememberOrForget(file, remember),
          () => null,
        );
        setRememberedMode(remembered);
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
    // A socket the login left for the chat, not yet taken, goes with the session.
    await import('../../lib/realtime/socket-handoff.js').then(
      (module) => module.dropParkedSocket(),
      () => undefined,
    );
    removeStorage(STORAGE_KEYS.session);
    setKeyFile(null);
    setRememberedMode(null);
    // Logging out also forgets the key on this device (a shared machine is left clean).
    await loadRemembered()
      .then((module) => module.forgetRemembered())
      .catch(() => undefined);
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
      const opened = await (await loadRemembered()).openWithPassphrase(passphrase);
      if (!opened || opened.keyId !== state.user?.keyId) {
        setRememberedMode(null);
        return;
      }
      setKeyFile(opened);
    },
    [state.user],
  );

  const forgetKey = useCallback(async () => {
    await (await loadRemembered()).forgetRemembered();
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
