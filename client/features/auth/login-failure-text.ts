/**
 * What a failed key login says, page by page (docs/decisions.md "Key login failure texts"). Both
 * pages toast 'Authentication Failed' with the failure's text, or 'Failed to authenticate with
 * the provided key' for a failure that is not a LoginError (spec 001 §8); they differ only where
 * the server answered the verification without an error text:
 *
 * - the key authentication page, shown on the chat's paths, logs in through the auth service of
 *   spec 000 §5: 'Authentication verification failed';
 * - the landing page's key card (and its admin dialog) words it as spec 001 §8 does:
 *   'Authentication failed'.
 *
 * A challenge failure reads 'Failed to get authentication challenge' on both (both specs).
 */
import { TEXT } from '../../../shared/protocol/errors.js';
import { LoginError } from './auth-api.js';

/** The key authentication page (spec 000 §5 texts). */
export function keyPageLoginFailureText(error: unknown): string {
  return error instanceof LoginError ? error.message : TEXT.authenticationFailedDefault;
}

/** The landing page (spec 001 §8 texts). */
export function landingLoginFailureText(error: unknown): string {
  if (!(error instanceof LoginError)) return TEXT.authenticationFailedDefault;
  if (error.step === 'verify' && !error.isServerText) return TEXT.landingVerificationFailed;
  return error.message;
}
