/**
 * The auth feature's front door: all that other features may import from it (docs/architecture.md,
 * "Client layers"). Anything else in this folder is private to it.
 */
export { LoginError } from './auth-api.js';
export { AuthProvider } from './AuthProvider.js';
