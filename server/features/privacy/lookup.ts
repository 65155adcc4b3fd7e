/**
 * The IP-information lookup behind `GET /api/privacy/check` (DESIGN.md "Connection privacy").
 *
 * The real adapter speaks vpnapi.io's API: `GET {PRIVACY_LOOKUP_URL}/{ip}?key={PRIVACY_LOOKUP_KEY}`
 * (or `{ip}` replaced inside the URL when it holds the placeholder), answering
 *
 * ```
 * { "ip": "…", "security": { "vpn": bool, "proxy": bool, "tor": bool, "relay": bool },
 *   "location": { "city": "…", "country": "…", … },
 *   "network": { "autonomous_system_organization": "…", … } }
 * ```
 *
 * Mapping: isVPN = vpn; isProxy = proxy or relay (Apple's Private Relay is a proxy for this
 * purpose); isTor = tor; isHosting = `security.hosting` when the service reports it (vpnapi.io
 * does not; compatible services such as ipapi.is report a datacenter flag under that name).
 * Unknown fields are ignored; missing ones count as false / Unknown.
 *
 * The browser never talks to this service: the server asks, so neither the key nor the user's
 * address goes from the browser to a third party. The key is never logged or returned.
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

/** The longest answer read from the service. */
const MAX_ANSWER_BYTES = 64 * 1024;

export class LookupError extends Error {
  override readonly name = 'LookupError';
}

/** The real adapter: vpnapi.io-style HTTP JSON with the access key in the query. */
export class HttpPrivacyLookup implements PrivacyLookup {
  constructor(private readonly options: { url: string; key: string | null; timeoutMs: number }) {}

  async lookup(ip: string): Promise<LookupAnswer> {
    const target = this.#urlFor(ip);
    let response: Response;
    try {
      response = await fetch(target, {
        headers: { accept: 'application/json' },
        redirect: 'error',
        signal: AbortSignal.timeout(this.options.timeoutMs),
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
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw new LookupError('malformed answer');
    }
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
    };
  }

  #urlFor(ip: string): URL {
    const { url, key } = this.options;
    const target = url.includes('{ip}')
      ? new URL(url.replace('{ip}', encodeURIComponent(ip)))
      : new URL(`${url.replace(/\/+$/, '')}/${encodeURIComponent(ip)}`);
    if (key) target.searchParams.set('key', key);
    return target;
  }
}

async function readBounded(response: Response, maxBytes: number): Promise<string> {
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
