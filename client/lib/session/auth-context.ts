/** The auth state of spec 000 §3 "Auth state" and the actions on it. */
import { createContext } from 'react';
import type { KeyFile } from '../../../shared/crypto/key-file-schema.js';
import type { SessionUser } from '../../../shared/protocol/http/auth.js';

export interface AuthState {
  isAuthenticated: boolean;
  sessionToken: string | null;
  user: SessionUser | null;
  isLoading: boolean;
  isAuthenticating: boolean;
}

export interface AuthContextValue extends AuthState {
  /** Logs in with a parsed, integrity-checked key file; resolves to the user or throws LoginError. */
  authenticate(keyFile: KeyFile): Promise<SessionUser>;
  /** Server logout, cleared session and access mode, a brief fade, then /landing. */
  logout(): Promise<void>;
  /** The key file of this tab's login, kept in memory only; null after a reload. */
  keyFile: KeyFile | null;
}

export const AuthContext = createContext<AuthContextValue | null>(null);
