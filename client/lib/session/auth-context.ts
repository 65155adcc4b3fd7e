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

/** "Remember this key on this device" at login: a device key, or a passphrase (docs/crypto.md). */
export interface RememberChoice {
  passphrase?: string;
}

/**
 * The key file of a signed-in key holder in this tab: `loaded` (in memory), `restoring` (being
 * opened from this device's remembered copy), `locked` (remembered under a passphrase not yet
 * entered), `missing` (not in this tab and not remembered: the file must be loaded again).
 */
export type KeyFileState = 'loaded' | 'restoring' | 'locked' | 'missing';

export interface AuthContextValue extends AuthState {
  /**
   * Logs in with a parsed, integrity-checked key file; resolves to the user or throws LoginError.
   * With `remember`, the key file is also sealed into this browser's storage; a failure to store
   * it does not fail the login (a toast says so).
   */
  authenticate(keyFile: KeyFile, remember?: RememberChoice): Promise<SessionUser>;
  /** Signed in but without the key file (a reload): holds `keyFile` if it is the signed-in key. */
  loadKeyFile(keyFile: KeyFile): void;
  /** Opens the passphrase-sealed copy; throws RememberedKeyError (e.g. `wrong-passphrase`). */
  unlockRememberedKey(passphrase: string): Promise<void>;
  /** Erases the remembered copy from this device and drops the key file from this tab. */
  forgetKey(): Promise<void>;
  keyFileState: KeyFileState | null;
  /** How the key is remembered on this device, or null when it is not. */
  rememberedMode: 'device' | 'passphrase' | null;
  /** Server logout, cleared session, access mode and remembered key, a brief fade, then /landing. */
  logout(): Promise<void>;
  /**
   * The key file of this tab's login, held in memory; after a reload null unless it was remembered
   * on this device (and unlocked) or loaded again.
   */
  keyFile: KeyFile | null;
}

export const AuthContext = createContext<AuthContextValue | null>(null);
