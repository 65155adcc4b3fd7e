/**
 * The IP-information lookups behind `GET /api/privacy/check` (DESIGN.md "Connection privacy"),
 * chosen by PRIVACY_LOOKUP_PROVIDER. Both send `GET {PRIVACY_LOOKUP_URL}/{ip}` (or `{ip}` replaced
 * inside the URL when it holds the placeholder) with the access key in the query.
 *
 * `vpnapi` (default), vpnapi.io's API, key as `?key=`, answering
 *
 * ```
 * { "ip": "…", "security": { "vpn": bool, "proxy": bool, "tor": bool, "relay": bool },
 *   "location": { "city": "…", "country": "…", … },
 *   "network": { "autonomous_system_organization": "…", … } }
 * ```
 *
 * Mapping: isVPN = vpn; isProxy = proxy or relay (Apple's Private Relay is a proxy for this
 * purpose); isTor = tor; isHosting = `security.hosting` when the service reports it (vpnapi.io
 * does not; compatible services such as ipapi.is report a datacenter flag under that name);
 * org = the network's AS organisation. vpnapi.io does not name the VPN service, and the AS
 * organisation is the network's operator, not the VPN's: `service` is null.
 *
 * `ipinfo`, ipinfo.io's API (the spec's answer shape), key as `?token=`, answering
 *
 * ```
 * { "ip": "…", "city": "…", "country": "…", "org": "AS… name",
 *   "privacy": { "vpn": bool, "proxy": bool, "tor": bool, "relay": bool, "hosting": bool,
 *                "service": "…" } }
 * ```
 *
 * Mapping: the privacy flags as they are (relay counts as proxy); `service` = `privacy.service`
 * when not empty, else null.
 *
 * Unknown fields are ignored; missing ones count as false / Unknown. The browser never talks to
 * these services: the server asks, so neither the key nor the user's address goes from the browser
 * to a third party. The key is never logged or returned.
 */
import { z } from 'zod';

/** What a lookup learns about one address. */
export interface LookupAnswer {
  isVPN: boolean;
  isProxy: boolean;
  isTor: boolean;
  isHosting: boolean;
  city: string;
  country: string;
  org: string;
  /** The VPN or proxy service's name when the lookup names it; null when it does not. */
  service: string | null;
}

export interface PrivacyLookup {
  /** Looks `ip` up; rejects on any failure (network, time-out, status, malformed answer). */
  lookup(ip: string): Promise<LookupAnswer>;
}

const text = z.string().max(200).catch('');
const flag = z.boolean().catch(false);

const VpnApiAnswerSchema = z.object({
  security: z
    .object({ vpn: flag, proxy: flag, tor: flag, relay: flag, hosting: flag })
    .partial()
    .default({}),
  location: z.object({ city: text, country: text }).partial().default({}),
  network: z.object({ autonomous_system_organization: text }).partial().default({}),
});

const IpinfoAnswerSchema = z.object({
  city: text.optional(),
  country: text.optional(),
  org: text.optional(),
  privacy: z
    .object({ vpn: flag, proxy: flag, tor: flag, relay: flag, hosting: flag, service: text })
    .partial()
    .default({}),
});

/** The longest answer read from the service. */
const MAX_ANSWER_BYTES = 64 * 1024;

export class LookupError extends Error {
  override readonly name = 'LookupError';
}

export type PrivacyLookupProvider = 'vpnapi' | 'ipinfo';

interface LookupOptions {
  url: string;
  key: string | null;
  timeoutMs: number;
}

/** Reads one answer from a lookup service; rejects with a LookupError on any failure. */
async function fetchAnswer(target: URL, timeoutMs: number): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(target, {
      headers: { accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    // The error may carry the URL (and so the key): keep only its kind.
    throw new LookupError(
      error instanceof Error && error.name === 'TimeoutError' ? 'timeout' : 'network',
    );
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new LookupError(`status ${response.status}`);
  }
  const body = await readBounded(response, MAX_ANSWER_BYTES);
  try {
    return JSON.parse(body);
  } catch {
    throw new LookupError('malformed answer');
  }
}

function lookupUrl(options: LookupOptions, ip: string, keyParameter: string): URL {
  const { url, key } = options;
  const target = url.includes('{ip}')
    ? new URL(url.replace('{ip}', encodeURIComponent(ip)))
    : new URL(`${url.replace(/\/+$/, '')}/${encodeURIComponent(ip)}`);
  if (key) target.searchParams.set(keyParameter, key);
  return target;
}

/** vpnapi.io's answer as a LookupAnswer (exported for the unit tests). */
export function parseVpnApiAnswer(json: unknown): LookupAnswer {
  const parsed = VpnApiAnswerSchema.safeParse(json);
  if (!parsed.success) throw new LookupError('malformed answer');
  const { security, location, network } = parsed.data;
  return {
    isVPN: security.vpn ?? false,
    isProxy: (security.proxy ?? false) || (security.relay ?? false),
    isTor: security.tor ?? false,
    isHosting: security.hosting ?? false,
    city: location.city || 'Unknown',
    country: location.country || 'Unknown',
    org: network.autonomous_system_organization || 'Unknown',
    // vpnapi.io names the network (its AS), never the VPN service.
    service: null,
  };
}

/** ipinfo.io's answer (the spec's shape) as a LookupAnswer (exported for the unit tests). */
export function parseIpinfoAnswer(json: unknown): LookupAnswer {
  const parsed = IpinfoAnswerSchema.safeParse(json);
  if (!parsed.success) throw new LookupError('malformed answer');
  const { privacy, city, country, org } = parsed.data;
  return {
    isVPN: privacy.vpn ?? false,
    isProxy: (privacy.proxy ?? false) || (privacy.relay ?? false),
    isTor: privacy.tor ?? false,
    isHosting: privacy.hosting ?? false,
    city: city || 'Unknown',
    country: country || 'Unknown',
    org: org || 'Unknown',
    service: privacy.service?.trim() || null,
  };
}

/** vpnapi.io-style HTTP JSON with the access key as `?key=`. */
export class HttpPrivacyLookup implements PrivacyLookup {
  constructor(private readonly options: LookupOptions) {}

  async lookup(ip: string): Promise<LookupAnswer> {
    const answer = await fetchAnswer(lookupUrl(this.options, ip, 'key'), this.options.timeoutMs);
    return parseVpnApiAnswer(answer);
  }
}

/** ipinfo.io-style HTTP JSON (the spec's answer shape) with the access key as `?token=`. */
export class IpinfoPrivacyLookup implements PrivacyLookup {
  constructor(private readonly options: LookupOptions) {}

  async lookup(ip: string): Promise<LookupAnswer> {
    const answer = await fetchAnswer(lookupUrl(this.options, ip, 'token'), this.options.timeoutMs);
    return parseIpinfoAnswer(answer);
  }
}

/** The adapter PRIVACY_LOOKUP_PROVIDER names. */
export function createPrivacyLookup(
  provider: PrivacyLookupProvider,
  options: LookupOptions,
): PrivacyLookup {
  return provider === 'ipinfo' ? new IpinfoPrivacyLookup(options) : new HttpPrivacyLookup(options);
}

export async function readBounded(response: Response, maxBytes: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new LookupError('answer too large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
