/**
 * The auth state machine (spec 000 §4 "Auth"): loading → the stored session is checked with the
 * server → authenticated, or unauthenticated with the stored session removed.
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

export function AuthProvider({ children }: { children: ReactNode }) {
  const [, navigate] = useLocation();
  const [state, setState] = useState<AuthState>(() => ({
    ...SIGNED_OUT,
    isLoading: readStorage(STORAGE_KEYS.session) !== null,
  }));
  const [keyFile, setKeyFile] = useState<KeyFile | null>(null);

  useEffect(() => {
    const token = readStorage(STORAGE_KEYS.session);
    if (!token) return;
    let cancelled = false;
    fetchSessionUser(token)
      .catch(() => undefined)
      .then((user) => {
        if (cancelled) return;
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

  const authenticate = useCallback(async (file: KeyFile): Promise<SessionUser> => {
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
  }, []);

  const logout = useCallback(async () => {
    const token = readStorage(STORAGE_KEYS.session);
    if (token) await logoutOnServer(token);
    removeStorage(STORAGE_KEYS.session);
    setKeyFile(null);
    setState(SIGNED_OUT);
    document.body.style.transition = `opacity ${LOGOUT_FADE_MS}ms`;
    document.body.style.opacity = '0';
    await new Promise((resolve) => window.setTimeout(resolve, LOGOUT_FADE_MS));
    clearAccessMode();
    navigate('/landing');
    document.body.style.opacity = '';
    document.body.style.transition = '';
  }, [navigate]);

  const value = useMemo<AuthContextValue>(
    () => ({ ...state, authenticate, logout, keyFile }),
    [state, authenticate, logout, keyFile],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
