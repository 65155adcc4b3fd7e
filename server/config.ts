/**
 * The environment, parsed by a schema once at start-up (DESIGN.md, operator contract).
 * Nothing else in server/ reads process.env.
 */
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_MESSAGE_TTL_SECONDS } from '../shared/constants.js';

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
const booleanFlag = z.preprocess(
  emptyToUndefined,
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .optional()
    .transform((value) => value === 'true' || value === '1' || value === 'yes'),
);

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
  TRUST_PROXY: booleanFlag,
  TLS_CERT: optionalString,
  TLS_KEY: optionalString,
  METRICS_TOKEN: z.preprocess(emptyToUndefined, z.string().min(16).optional()),
  TOR_BIN: optionalString,
  PAYMENT_PROVIDER: z.preprocess(emptyToUndefined, z.string().default('sandbox')),
  PRICE_FEED_URL: optionalString,
  PRIVACY_LOOKUP_URL: optionalString,
  PRIVACY_LOOKUP_KEY: optionalString,
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  CLIENT_DIST: optionalString,
  ALLOW_INSECURE_HTTP: booleanFlag,
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
  trustProxy: boolean;
  tls: { certPath: string; keyPath: string } | null;
  metricsToken: string | null;
  torBin: string | null;
  paymentProvider: string;
  priceFeedUrl: string | null;
  privacyLookupUrl: string | null;
  privacyLookupKey: string | null;
  logLevel: string;
  clientDist: string;
  /** Plain HTTP on a network address was allowed explicitly (ALLOW_INSECURE_HTTP=1). */
  allowInsecureHttp: boolean;
}

/**
 * True when browsers reaching `host` get a secure context without TLS: loopback (127.0.0.0/8,
 * ::1, localhost) or an onion address. Anywhere else, plain HTTP hides WebCrypto from the page,
 * so no message could be encrypted (issue 14).
 */
export function isSecureWithoutTls(host: string): boolean {
  const name = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name === '::1' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name) ||
    name.endsWith('.onion')
  );
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
  if (Boolean(env.TLS_CERT) !== Boolean(env.TLS_KEY)) {
    problems.push('TLS_CERT, TLS_KEY: TLS_CERT and TLS_KEY must be set together');
  }
  if (
    parsed.success &&
    !parsed.data.TLS_CERT &&
    !parsed.data.ALLOW_INSECURE_HTTP &&
    !isSecureWithoutTls(parsed.data.HOST)
  ) {
    problems.push(INSECURE_HTTP_REFUSAL);
  }
  if (!parsed.success || problems.length > 0) {
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
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
    metricsToken: e.METRICS_TOKEN ?? null,
    torBin: e.TOR_BIN ?? null,
    paymentProvider: e.PAYMENT_PROVIDER,
    priceFeedUrl: e.PRICE_FEED_URL ?? null,
    privacyLookupUrl: e.PRIVACY_LOOKUP_URL ?? null,
    privacyLookupKey: e.PRIVACY_LOOKUP_KEY ?? null,
    logLevel: e.LOG_LEVEL,
    clientDist: path.resolve(cwd, e.CLIENT_DIST ?? 'dist/client'),
    allowInsecureHttp: e.ALLOW_INSECURE_HTTP,
  };
}
