/**
 * Connection privacy (spec 000 §3 "Connection privacy result", §4, §7, §8; DESIGN.md "Connection
 * privacy"): what the server can tell about the address a request came from.
 *
 * - A request that arrives over the server's own onion service (an `.onion` Host, forwarded by
 *   tor from loopback) is Tor, without a lookup.
 * - A loopback or private address has nothing to look up: a direct connection.
 * - Without `PRIVACY_LOOKUP_URL` the answer says the lookup is not configured; Tor is still
 *   recognised from tor's exit list (tor-exit-list.ts) when one is loaded.
 * - Every answer names the parts that could not be checked (`notChecked`).
 * - Otherwise the lookup's answer, cached per address for PRIVACY_CHECK_REFRESH_MS (bounded
 *   number of entries, oldest dropped first); concurrent checks of one address share one lookup.
 *   A failed lookup gives the spec's failure result (never a 5xx) and is cached for a minute so a
 *   failing service is not asked on every call.
 */
import { BlockList, isIP } from 'node:net';
import { PRIVACY_CHECK_REFRESH_MS } from '../../../shared/constants.js';
import type {
  ConnectionPrivacy,
  PrivacyCheck,
  PrivacySource,
} from '../../../shared/protocol/http/privacy.js';
import type { LookupAnswer, PrivacyLookup } from './lookup.js';
import type { TorExitList } from './tor-exit-list.js';

/** How long a failed lookup's answer is reused. */
export const PRIVACY_FAILURE_CACHE_MS = 60_000;
/** The most addresses whose answers are kept. */
export const PRIVACY_CACHE_MAX_ENTRIES = 10_000;

const UNKNOWN = 'Unknown';

const LOCAL_RANGES = (() => {
  const list = new BlockList();
  for (const [network, prefix] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
  ] as const) {
    list.addSubnet(network, prefix, 'ipv4');
  }
  list.addAddress('::', 'ipv6');
  list.addAddress('::1', 'ipv6');
  list.addSubnet('fc00::', 7, 'ipv6');
  list.addSubnet('fe80::', 10, 'ipv6');
  return list;
})();

/** The address as a plain IPv4 one when it is IPv4-mapped (`::ffff:1.2.3.4`). */
export function normalizeAddress(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  return mapped?.[1] ?? ip;
}

/** True for loopback, private, link-local and unspecified addresses: nothing to look up. */
export function isLocalAddress(ip: string): boolean {
  const address = normalizeAddress(ip);
  const family = isIP(address);
  if (family === 0) return true;
  return LOCAL_RANGES.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * True when a request came over the onion service: through the onion entrance, or to an onion
 * Host forwarded locally by a tor that does not go through the entrance.
 */
export function isOnionRequest(
  hostname: string,
  remoteAddress: string | undefined,
  viaOnionEntrance = false,
): boolean {
  if (viaOnionEntrance) return true;
  if (!/\.onion$/i.test(hostname.replace(/:\d+$/, ''))) return false;
  return remoteAddress !== undefined && isLocalAddress(remoteAddress);
}

export interface PrivacyServiceDeps {
  lookup: PrivacyLookup | null;
  /** tor's published exit list; null when none is configured. */
  exitList?: TorExitList | null;
  now: () => number;
}

/** What the lookup service would have told. */
const LOOKUP_CHECKS: readonly PrivacyCheck[] = ['vpn', 'proxy', 'hosting', 'location'];

interface CacheEntry {
  answer: LookupAnswer | null;
  expiresAt: number;
}

export class PrivacyService {
  readonly #cache = new Map<string, CacheEntry>();
  readonly #inFlight = new Map<string, Promise<LookupAnswer | null>>();

  constructor(private readonly deps: PrivacyServiceDeps) {}

  /** The privacy result for a caller at `ip`, reached through `hostname`. */
  async check(input: {
    ip: string;
    hostname: string;
    remoteAddress: string | undefined;
    viaOnionEntrance?: boolean;
  }): Promise<ConnectionPrivacy> {
    const ip = normalizeAddress(input.ip);
    if (isOnionRequest(input.hostname, input.remoteAddress, input.viaOnionEntrance)) {
      return this.#result('onion', { ...clean(), isTor: true }, UNKNOWN, []);
    }
    if (isLocalAddress(ip)) return this.#result('local', clean(), ip, []);
    const exit = this.deps.exitList?.has(ip) ?? null;
    if (!this.deps.lookup) {
      return this.#result('not-configured', { ...clean(), isTor: exit === true }, ip, [
        ...LOOKUP_CHECKS,
        ...(exit === null ? (['tor'] as const) : []),
      ]);
    }
    const answer = await this.#cachedLookup(ip, this.deps.lookup);
    if (!answer) {
      return this.#result('failed', { ...clean(), isTor: exit === true }, UNKNOWN, [
        ...LOOKUP_CHECKS,
        ...(exit === null ? (['tor'] as const) : []),
      ]);
    }
    return this.#result('lookup', { ...answer, isTor: answer.isTor || exit === true }, ip, []);
  }

  /** Entries held now (for tests and metrics). */
  get cacheSize(): number {
    return this.#cache.size;
  }

  async #cachedLookup(ip: string, lookup: PrivacyLookup): Promise<LookupAnswer | null> {
    const now = this.deps.now();
    const cached = this.#cache.get(ip);
    if (cached && cached.expiresAt > now) return cached.answer;
    const pending = this.#inFlight.get(ip);
    if (pending) return pending;
    const request = lookup
      .lookup(ip)
      .then(
        (answer): LookupAnswer | null => answer,
        () => null,
      )
      .then((answer) => {
        this.#remember(ip, {
          answer,
          expiresAt:
            this.deps.now() + (answer ? PRIVACY_CHECK_REFRESH_MS : PRIVACY_FAILURE_CACHE_MS),
        });
        return answer;
      })
      .finally(() => this.#inFlight.delete(ip));
    this.#inFlight.set(ip, request);
    return request;
  }

  #remember(ip: string, entry: CacheEntry): void {
    // Re-inserting moves the address to the back: the Map's order is the eviction order.
    this.#cache.delete(ip);
    this.#cache.set(ip, entry);
    while (this.#cache.size > PRIVACY_CACHE_MAX_ENTRIES) {
      const oldest = this.#cache.keys().next();
      if (oldest.done) break;
      this.#cache.delete(oldest.value);
    }
  }

  #result(
    source: PrivacySource,
    answer: LookupAnswer,
    ip: string,
    notChecked: PrivacyCheck[],
  ): ConnectionPrivacy {
    return {
      isVPN: answer.isVPN,
      isProxy: answer.isProxy,
      isTor: answer.isTor,
      isHosting: answer.isHosting,
      service: answer.service,
      location: { city: answer.city, country: answer.country },
      org: answer.org,
      ip,
      source,
      notChecked,
      checkedAt: new Date(this.deps.now()).toISOString(),
    };
  }
}

/** The spec's failure result (spec 000 §8): no VPN, proxy, Tor or hosting; everything Unknown. */
function clean(): LookupAnswer {
  return {
    isVPN: false,
    isProxy: false,
    isTor: false,
    isHosting: false,
    city: UNKNOWN,
    country: UNKNOWN,
    org: UNKNOWN,
    service: null,
  };
}
