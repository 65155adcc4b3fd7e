/**
 * Connection privacy and the server's pinnable identity: `GET /api/privacy/check` and
 * `GET /api/certificate-info`.
 */
import type { Config } from '../../config.js';
import type { Db } from '../../db/connect.js';
import { createIdentityStore } from './identity-store.js';
import { createPrivacyLookup, type PrivacyLookup } from './lookup.js';
import { privacyRoutes } from './routes.js';
import { ServerIdentity } from './server-identity.js';
import { PrivacyService } from './service.js';
import { TorExitList } from './tor-exit-list.js';

export { PrivacyService, isLocalAddress, isOnionRequest } from './service.js';
export {
  HttpPrivacyLookup,
  IpinfoPrivacyLookup,
  type PrivacyLookup,
  type LookupAnswer,
} from './lookup.js';
export { TorExitList } from './tor-exit-list.js';
export { ServerIdentity, certificateFingerprint } from './server-identity.js';

/** How long the server waits for the IP-information service. */
export const PRIVACY_LOOKUP_TIMEOUT_MS = 5_000;

export async function createPrivacyFeature(deps: {
  config: Config;
  db: Db;
  now: () => number;
  /** Replaces the configured lookup (tests). */
  lookup?: PrivacyLookup | null;
  /** Told when tor's exit list cannot be fetched (never its content). */
  onExitListFailure?: (reason: string) => void;
}) {
  const { config } = deps;
  const lookup =
    deps.lookup !== undefined
      ? deps.lookup
      : config.privacyLookupUrl
        ? createPrivacyLookup(config.privacyLookupProvider, {
            url: config.privacyLookupUrl,
            key: config.privacyLookupKey,
            timeoutMs: PRIVACY_LOOKUP_TIMEOUT_MS,
          })
        : null;
  const exitList = config.torExitListUrl
    ? new TorExitList({
        url: config.torExitListUrl,
        now: deps.now,
        ...(deps.onExitListFailure ? { onFailure: deps.onExitListFailure } : {}),
      })
    : null;
  const privacy = new PrivacyService({ lookup, exitList, now: deps.now });
  const keyPair = await createIdentityStore(deps.db, deps.now).load();
  const certificatePath = config.tls?.certPath ?? config.proxyCertPath;
  const identity = new ServerIdentity(
    keyPair,
    certificatePath ? { path: certificatePath, isTerminatedHere: config.tls !== null } : null,
  );
  return { privacy, identity, exitList, routes: privacyRoutes({ privacy, identity }) };
}
