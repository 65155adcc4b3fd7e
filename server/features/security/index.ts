/** Key-exchange helpers: server entropy and the PFS exchange. */
import { PfsKeyRing } from './pfs-keys.js';
import { securityRoutes } from './routes.js';

export { PfsKeyRing, PFS_TEXT } from './pfs-keys.js';

export function createSecurityFeature(deps: { now: () => number }) {
  const pfs = new PfsKeyRing(deps.now);
  return { pfs, routes: securityRoutes({ pfs }) };
}
