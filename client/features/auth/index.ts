export { LoginError } from './auth-api.js';
export { AuthProvider } from './AuthProvider.js';
