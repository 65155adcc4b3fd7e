/** Key-exchange helpers (server entropy, PFS exchange) and the TLS certificate fingerprint. */
import { PfsKeyRing } from './pfs-keys.js';
import { securityRoutes } from './routes.js';

export { PfsKeyRing, PFS_TEXT } from './pfs-keys.js';
export { certificateFingerprint } from './routes.js';

export function createSecurityFeature(deps: { now: () => number; certPath: string | null }) {
  const pfs = new PfsKeyRing(deps.now);
  return { pfs, routes: securityRoutes({ pfs, certPath: deps.certPath }) };
}
