/**
 * The environment, parsed by a schema once at start-up (DESIGN.md, operator contract).
 * Nothing else in server/ reads process.env.
 */
import { BlockList, isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_MESSAGE_TTL_SECONDS } from '../shared/constants.js';
import type { PaymentMode } from '../shared/protocol/http/payments.js';
import { IceServerListSchema, type IceServer } from '../shared/protocol/http/voice.js';

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);
/** The Tor Project's bulk exit list: what check.torproject.org itself decides by. */
export const DEFAULT_TOR_EXIT_LIST_URL = 'https://check.torproject.org/torbulkexitlist';

const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
const booleanFlag = z.preprocess(
  emptyToUndefined,
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .optional()
    .transform((value) => value === 'true' || value === '1' || value === 'yes'),
);

/** The named address ranges Fastify's `trustProxy` (proxy-addr) understands. */
const TRUST_PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** True for an IPv4/IPv6 address or a CIDR block with a prefix length that fits it. */
function isAddressOrCidr(token: string): boolean {
  const [address, prefix, ...rest] = token.split('/');
  if (rest.length > 0 || address === undefined) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * `TRUST_PROXY`, in the forms Fastify's `trustProxy` accepts and operators write:
 * `true`/`yes` (trust every hop: only behind a proxy that overwrites X-Forwarded-For),
 * `false`/`no` (default), a hop count (`1` = one proxy in front), or a comma-separated list of
 * `loopback`, `linklocal`, `uniquelocal`, addresses and CIDR blocks.
 */
export type TrustProxySetting = boolean | number | string[];

const trustProxySetting = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .optional()
    .transform((raw, context): TrustProxySetting => {
      if (raw === undefined) return false;
      const value = raw.trim().toLowerCase();
      if (value === 'true' || value === 'yes') return true;
      if (value === 'false' || value === 'no' || value === '0') return false;
      if (/^\d{1,2}$/.test(value)) return Number(value);
      const tokens = value.split(',').map((token) => token.trim());
      if (
        tokens.length > 0 &&
        tokens.length <= 64 &&
        tokens.every((token) => TRUST_PROXY_RANGES.has(token) || isAddressOrCidr(token))
      ) {
        return tokens;
      }
      context.addIssue({
        code: 'custom',
        message:
          'expected true, false, a hop count, or a comma-separated list of loopback, linklocal, uniquelocal, addresses and CIDR blocks',
      });
      return z.NEVER;
    }),
);

/** Open sockets one address may hold (per process) unless MAX_SOCKETS_PER_ADDRESS says otherwise. */
export const DEFAULT_MAX_SOCKETS_PER_ADDRESS = 50;
/**
 * Onion traffic arrives from the local tor daemon, so every Tor user shares one address: their
 * sockets are counted together against this larger cap instead (MAX_ONION_SOCKETS).
 */
export const DEFAULT_MAX_ONION_SOCKETS = 1000;

/**
 * Seconds a TURN credential lasts unless TURN_TTL says otherwise: 10 minutes. coturn checks the
 * credential itself and the server cannot take one back, so its lifetime is how long a removed
 * member could still relay through TURN; the browser fetches a fresh one at half its lifetime
 * while in a call (client/features/voice), and a removed member is refused one.
 */
export const DEFAULT_TURN_TTL_SECONDS = 600;

/** The longest TURN_TTL allowed: a removed member's credential must end soon (principle 9). */
export const MAX_TURN_TTL_SECONDS = 3_600;

/** Participants of one voice call unless VOICE_MAX_PARTICIPANTS says otherwise (a mesh). */
export const DEFAULT_VOICE_MAX_PARTICIPANTS = 8;

/** `ICE_SERVERS`: JSON text holding an array of `IceServerSchema` (shared/protocol/http/voice.ts). */
const iceServersSetting = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .optional()
    .transform((raw, context): IceServer[] | null => {
      if (raw === undefined) return null;
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        context.addIssue({ code: 'custom', message: 'must be a JSON array of ICE servers' });
        return z.NEVER;
      }
      const parsed = IceServerListSchema.safeParse(value);
      if (parsed.success) return parsed.data;
      // Paths and messages only: an entry's credential must not reach the start-up error.
      for (const issue of parsed.error.issues) {
        context.addIssue({
          code: 'custom',
          message: `${issue.path.join('.') || 'value'}: ${issue.message}`,
        });
      }
      return z.NEVER;
    }),
);

/** `TURN_URL`: one or more comma-separated `turn:`/`turns:` URLs of the same TURN server. */
const turnUrlsSetting = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .optional()
    .transform((raw, context): string[] | null => {
      if (raw === undefined) return null;
      const urls = raw
        .split(',')
        .map((url) => url.trim())
        .filter((url) => url !== '');
      if (urls.length > 0 && urls.every((url) => /^turns?:[^\s,]{1,500}$/.test(url))) return urls;
      context.addIssue({
        code: 'custom',
        message: 'expected turn: or turns: URLs, comma-separated',
      });
      return z.NEVER;
    }),
);

/** One web origin, `scheme://host[:port]`, lowercased, as browsers send it in `Origin`. */
const OriginSchema = z
  .string()
  .trim()
  .transform((value, context) => {
    try {
      const url = new URL(value);
      if ((url.protocol === 'http:' || url.protocol === 'https:') && url.origin !== 'null')
        return url.origin;
    } catch {
      // reported below
    }
    context.addIssue({ code: 'custom', message: 'each entry must be an http(s) origin' });
    return z.NEVER;
  });

export const ConfigSchema = z.object({
  PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(5000)),
  HOST: z.preprocess(emptyToUndefined, z.string().default('127.0.0.1')),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL')
      .optional(),
  ),
  REDIS_URL: optionalString,
  REDIS_PREFIX: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9:_-]{1,64}$/, 'letters, digits, ":", "_" or "-"')
      .default('securechannel:'),
  ),
  ADMIN_PASSWORD: optionalString,
  MESSAGE_TTL_SECONDS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(86_400).default(DEFAULT_MESSAGE_TTL_SECONDS),
  ),
  TRUST_PROXY: trustProxySetting,
  TLS_CERT: optionalString,
  TLS_KEY: optionalString,
  METRICS_TOKEN: z.preprocess(emptyToUndefined, z.string().min(16).optional()),
  TOR_BIN: optionalString,
  TOR_SOCKS_PORT: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(65535).default(9050),
  ),
  TOR_CONTROL_PORT: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(65535).default(9051),
  ),
  /** Where `tor` is looked for when TOR_BIN is unset. */
  PATH: optionalString,
  /**
   * `sandbox`, `nowpayments`, or `none` (alias `disabled`). Unset: see `defaultPaymentMode`; the
   * sandbox is never the default on a network address (DESIGN.md principle 11).
   */
  PAYMENT_PROVIDER: z.preprocess(
    emptyToUndefined,
    z
      .enum(['sandbox', 'nowpayments', 'none', 'disabled'])
      .optional()
      .transform((value): PaymentMode | undefined => (value === 'disabled' ? 'none' : value)),
  ),
  PAYMENT_API_KEY: optionalString,
  PAYMENT_IPN_SECRET: optionalString,
  PAYMENT_API_URL: z.preprocess(
    emptyToUndefined,
    z.url({ protocol: /^https?$/ }).default('https://api.nowpayments.io/v1'),
  ),
  PAYMENT_CALLBACK_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).optional()),
  SANDBOX_CONFIRMATION_SECONDS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(3600).default(10),
  ),
  PRICE_FEED_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).optional()),
  PRIVACY_LOOKUP_URL: optionalString,
  PRIVACY_LOOKUP_KEY: optionalString,
  /** Which API PRIVACY_LOOKUP_URL speaks: vpnapi.io's (default) or ipinfo.io's (spec's shape). */
  PRIVACY_LOOKUP_PROVIDER: z.preprocess(
    emptyToUndefined,
    z.enum(['vpnapi', 'ipinfo']).default('vpnapi'),
  ),
  /**
   * tor's published exit list (one address a line, or the `ExitAddress` form); `off` fetches
   * nothing. Unset: the Tor Project's bulk list when NODE_ENV is production, else nothing.
   */
  TOR_EXIT_LIST_URL: z.preprocess(
    emptyToUndefined,
    z.union([z.literal('off'), z.url({ protocol: /^https?$/ })]).optional(),
  ),
  NODE_ENV: optionalString,
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  LOG_FORMAT: z.preprocess(emptyToUndefined, z.enum(['json', 'text']).optional()),
  CLIENT_DIST: optionalString,
  /** Pong simulation steps per 1/60 s (tests and demos play whole games fast); default 1. */
  PONG_TIME_SCALE: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(50).default(1),
  ),
  ALLOW_INSECURE_HTTP: booleanFlag,
  ALLOWED_ORIGINS: optionalString,
  MAX_SOCKETS_PER_ADDRESS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(1_000_000).default(DEFAULT_MAX_SOCKETS_PER_ADDRESS),
  ),
  MAX_ONION_SOCKETS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(1_000_000).default(DEFAULT_MAX_ONION_SOCKETS),
  ),
  ICE_SERVERS: iceServersSetting,
  TURN_URL: turnUrlsSetting,
  TURN_SECRET: z.preprocess(emptyToUndefined, z.string().min(16).max(512).optional()),
  TURN_TTL: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(60).max(MAX_TURN_TTL_SECONDS).default(DEFAULT_TURN_TTL_SECONDS),
  ),
  VOICE_MAX_PARTICIPANTS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(2).max(32).default(DEFAULT_VOICE_MAX_PARTICIPANTS),
  ),
  VOICE_SIGNALS_PER_SECOND: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(1000).default(10),
  ),
  VOICE_CALL_SIGNALS_PER_SECOND: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(100_000).default(120),
  ),
});

/** The server's configuration, with paths resolved. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  redisUrl: string | null;
  /** Every Redis key and channel starts with this. */
  redisPrefix: string;
  adminPassword: string | null;
  messageTtlSeconds: number;
  trustProxy: TrustProxySetting;
  tls: { certPath: string; keyPath: string } | null;
  /**
   * The certificate a TLS proxy in front of the server presents (`TLS_CERT` without `TLS_KEY`):
   * its fingerprint is what `GET /api/certificate-info` reports; the server itself speaks HTTP.
   */
  proxyCertPath: string | null;
  metricsToken: string | null;
  torBin: string | null;
  torSocksPort: number;
  torControlPort: number;
  /** The PATH searched for `tor` when TOR_BIN is unset. */
  searchPath: string;
  /** Key purchase (DESIGN.md "Payments"). */
  payments: {
    /** `none`: the server sells no keys and every purchase route answers 503. */
    provider: PaymentMode;
    /**
     * How `provider` was chosen: PAYMENT_PROVIDER (`setting`), or its default when it is unset,
     * `sandbox` on a development host (`loopback-default`) and `none` anywhere else
     * (`network-default`).
     */
    providerChosenBy: 'setting' | 'loopback-default' | 'network-default';
    apiKey: string | null;
    ipnSecret: string | null;
    /** NOWPayments' API base URL. */
    apiUrl: string;
    /** This server's IPN route as the processor reaches it, or null. */
    callbackUrl: string | null;
    sandboxConfirmationSeconds: number;
  };
  priceFeedUrl: string | null;
  privacyLookupUrl: string | null;
  privacyLookupKey: string | null;
  privacyLookupProvider: 'vpnapi' | 'ipinfo';
  /** Where tor's exit list is fetched from (hourly), or null for none. */
  torExitListUrl: string | null;
  logLevel: string;
  /** `LOG_FORMAT`; null: text on a terminal, JSON elsewhere (server/lib/log-output.ts). */
  logFormat: 'json' | 'text' | null;
  clientDist: string;
  /** Pong steps per tick: 1 is real time (server/features/pong). */
  pongTimeScale: number;
  /**
   * Origins, besides the request's own host, whose pages may open the realtime sockets
   * (ALLOWED_ORIGINS, comma-separated; an onion address goes here when it is served).
   */
  allowedOrigins: string[];
  /** Open sockets per exact client address, per process. */
  maxSocketsPerAddress: number;
  /** Open sockets of all onion (Tor) visitors together, per process. */
  maxOnionSockets: number;
  /** Plain HTTP on a network address was allowed explicitly (ALLOW_INSECURE_HTTP=1). */
  allowInsecureHttp: boolean;
  /** Voice calls (DESIGN.md "Voice", server/features/voice). */
  voice: {
    /** `ICE_SERVERS`, or null for the public STUN defaults. */
    iceServers: IceServer[] | null;
    /** TURN with coturn's shared secret (`TURN_URL` and `TURN_SECRET`), or null. */
    turn: { urls: string[]; secret: string; ttlSeconds: number } | null;
    maxParticipants: number;
    /** Signalling frames one socket may send a second (a burst of four times more). */
    signalsPerSecond: number;
    /** Signalling frames of one call a second, on all processes together. */
    callSignalsPerSecond: number;
  };
}

/** 127.0.0.0/8 and ::1 (BlockList also matches every spelling of ::1 and ::ffff:127.x.y.z). */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** `host` lowercased, trimmed, and without the brackets of an IPv6 literal. */
function hostName(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
}

/**
 * True when `host` is a loopback address or name: 127.0.0.0/8, ::1 (any spelling, IPv4-mapped
 * included), `localhost` and `*.localhost`. A server listening there is reachable from this
 * machine only, unless a proxy forwards to it. The wildcards (0.0.0.0, ::), LAN and public
 * addresses and other names are not loopback.
 */
export function isLoopbackHost(host: string): boolean {
  const name = hostName(host);
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  const family = isIP(name);
  return family !== 0 && LOOPBACK.check(name, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * True when browsers reaching `host` get a secure context without TLS: loopback (127.0.0.0/8,
 * ::1, localhost) or an onion address. Anywhere else, plain HTTP hides WebCrypto from the page,
 * so no message could be encrypted (issue 14).
 */
export function isSecureWithoutTls(host: string): boolean {
  return isLoopbackHost(host) || hostName(host).endsWith('.onion');
}

/**
 * The payment mode when PAYMENT_PROVIDER is unset (DESIGN.md principle 11, issue 31): the
 * sandbox, where anyone gets a key for a simulated payment, only on a development host, i.e. a
 * loopback HOST with no sign of a proxy in front (TRUST_PROXY, or TLS_CERT naming a proxy's
 * certificate: both say that visitors from the network reach this loopback address). Anywhere
 * else the server sells no keys until the operator chooses a processor.
 */
export function defaultPaymentMode(where: {
  host: string;
  trustProxy: TrustProxySetting;
  hasProxyCertificate: boolean;
}): 'sandbox' | 'none' {
  const isBehindProxy =
    where.hasProxyCertificate ||
    (Array.isArray(where.trustProxy) ? where.trustProxy.length > 0 : where.trustProxy !== false);
  return isLoopbackHost(where.host) && !isBehindProxy ? 'sandbox' : 'none';
}

/** The start-up refusal of plain HTTP on a network address (names the variable, not values). */
export const INSECURE_HTTP_REFUSAL =
  'HOST, ALLOW_INSECURE_HTTP: refusing to serve plain HTTP on a non-loopback, non-onion address: ' +
  'browsers hide WebCrypto there, so no message could be end-to-end encrypted. Set TLS_CERT and ' +
  'TLS_KEY, keep HOST on loopback behind a TLS proxy, or set ALLOW_INSECURE_HTTP=1 to serve it ' +
  'anyway (the page then says that encryption is unavailable).';

/** Parses `env`; throws an Error listing every bad variable (never their values). */
export function loadConfig(env: Record<string, string | undefined>, cwd: string): Config {
  const parsed = ConfigSchema.safeParse(env);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.') || 'env'}: ${issue.message}`);
  if (env.TLS_KEY && !env.TLS_CERT) {
    problems.push('TLS_KEY: TLS_KEY needs TLS_CERT');
  }
  if (
    parsed.success &&
    parsed.data.PAYMENT_PROVIDER === 'nowpayments' &&
    (!parsed.data.PAYMENT_API_KEY || !parsed.data.PAYMENT_IPN_SECRET)
  ) {
    problems.push(
      'PAYMENT_API_KEY, PAYMENT_IPN_SECRET: both are required with PAYMENT_PROVIDER=nowpayments',
    );
  }
  if (parsed.success && Boolean(parsed.data.TURN_URL) !== Boolean(parsed.data.TURN_SECRET)) {
    problems.push('TURN_URL, TURN_SECRET: set both for TURN, or neither');
  }
  if (parsed.success && parsed.data.TOR_SOCKS_PORT === parsed.data.TOR_CONTROL_PORT) {
    problems.push('TOR_SOCKS_PORT, TOR_CONTROL_PORT: must differ');
  }
  // Plain HTTP on a network interface hides WebCrypto from the page and carries the admin
  // password and session tokens in clear: only with TLS here, or when the operator says a TLS
  // proxy in front is the only way in.
  if (
    parsed.success &&
    !(parsed.data.TLS_CERT && parsed.data.TLS_KEY) &&
    !parsed.data.ALLOW_INSECURE_HTTP &&
    !isSecureWithoutTls(parsed.data.HOST)
  ) {
    problems.push(INSECURE_HTTP_REFUSAL);
  }
  if (!parsed.success || problems.length > 0) {
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  const origins = z
    .array(OriginSchema)
    .safeParse((e.ALLOWED_ORIGINS ?? '').split(',').filter((entry) => entry.trim() !== ''));
  if (!origins.success)
    throw new Error(
      'Invalid configuration:\n  ALLOWED_ORIGINS: each entry must be an http(s) origin',
    );
  const paymentMode =
    e.PAYMENT_PROVIDER ??
    defaultPaymentMode({
      host: e.HOST,
      trustProxy: e.TRUST_PROXY,
      hasProxyCertificate: Boolean(e.TLS_CERT && !e.TLS_KEY),
    });
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(cwd, e.DATA_DIR),
    databaseUrl: e.DATABASE_URL ?? null,
    redisUrl: e.REDIS_URL ?? null,
    redisPrefix: e.REDIS_PREFIX,
    adminPassword: e.ADMIN_PASSWORD ?? null,
    messageTtlSeconds: e.MESSAGE_TTL_SECONDS,
    trustProxy: e.TRUST_PROXY,
    tls: e.TLS_CERT && e.TLS_KEY ? { certPath: e.TLS_CERT, keyPath: e.TLS_KEY } : null,
    proxyCertPath: e.TLS_CERT && !e.TLS_KEY ? e.TLS_CERT : null,
    metricsToken: e.METRICS_TOKEN ?? null,
    torBin: e.TOR_BIN ?? null,
    torSocksPort: e.TOR_SOCKS_PORT,
    torControlPort: e.TOR_CONTROL_PORT,
    searchPath: e.PATH ?? '',
    payments: {
      provider: paymentMode,
      providerChosenBy: e.PAYMENT_PROVIDER
        ? 'setting'
        : paymentMode === 'sandbox'
          ? 'loopback-default'
          : 'network-default',
      apiKey: e.PAYMENT_API_KEY ?? null,
      ipnSecret: e.PAYMENT_IPN_SECRET ?? null,
      apiUrl: e.PAYMENT_API_URL,
      callbackUrl: e.PAYMENT_CALLBACK_URL ?? null,
      sandboxConfirmationSeconds: e.SANDBOX_CONFIRMATION_SECONDS,
    },
    priceFeedUrl: e.PRICE_FEED_URL ?? null,
    privacyLookupUrl: e.PRIVACY_LOOKUP_URL ?? null,
    privacyLookupKey: e.PRIVACY_LOOKUP_KEY ?? null,
    privacyLookupProvider: e.PRIVACY_LOOKUP_PROVIDER,
    torExitListUrl:
      e.TOR_EXIT_LIST_URL === 'off'
        ? null
        : (e.TOR_EXIT_LIST_URL ?? (e.NODE_ENV === 'production' ? DEFAULT_TOR_EXIT_LIST_URL : null)),
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? null,
    clientDist: path.resolve(cwd, e.CLIENT_DIST ?? 'dist/client'),
    pongTimeScale: e.PONG_TIME_SCALE,
    allowedOrigins: origins.data,
    maxSocketsPerAddress: e.MAX_SOCKETS_PER_ADDRESS,
    maxOnionSockets: e.MAX_ONION_SOCKETS,
    allowInsecureHttp: e.ALLOW_INSECURE_HTTP,
    voice: {
      iceServers: e.ICE_SERVERS,
      turn:
        e.TURN_URL && e.TURN_SECRET
          ? { urls: e.TURN_URL, secret: e.TURN_SECRET, ttlSeconds: e.TURN_TTL }
          : null,
      maxParticipants: e.VOICE_MAX_PARTICIPANTS,
      signalsPerSecond: e.VOICE_SIGNALS_PER_SECOND,
      callSignalsPerSecond: e.VOICE_CALL_SIGNALS_PER_SECOND,
    },
  };
}
