/**
 * The auth feature's front door: all that other features may import from it (docs/architecture.md,
 * "Client layers"). Anything else in this folder is private to it.
 */
export { LoginError } from './auth-api.js';
export { keyPageLoginFailureText, landingLoginFailureText } from './login-failure-text.js';
export { AuthProvider } from './AuthProvider.js';
