/**
 * Security headers on every response: helmet's defaults, a Content-Security-Policy whose
 * `connect-src` names only this origin (and the origins the operator configures), and a
 * Permissions-Policy that turns off the powerful features the app does not use.
 *
 * `connect-src 'self'` covers the app's own WebSocket: CSP Level 3 lets `'self'` match `ws:` and
 * `wss:` URLs of the page's own host (`wss:` only, for an https page). Browsers that predate that
 * rule (Safari before 15.4) need the socket's origin spelled out, so the request's own host is
 * added as `ws(s)://host`, which widens nothing: it is the host the page was loaded from.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Only the microphone (voice calls, for this origin) is allowed; everything else that a page can
 * ask the user for, or read from the device, is off for the app and for anything it embeds.
 */
export const PERMISSIONS_POLICY = [
  'camera=()',
  'microphone=(self)',
  'geolocation=()',
  'display-capture=()',
  'payment=()',
  'usb=()',
  'serial=()',
  'hid=()',
  'bluetooth=()',
  'midi=()',
  'accelerometer=()',
  'gyroscope=()',
  'magnetometer=()',
].join(', ');

export interface SecurityHeaderOptions {
  /** The server terminates TLS itself: HSTS, and insecure requests upgraded. */
  tls: boolean;
  /** Further origins the app may connect to (scheme://host[:port]), e.g. the onion address. */
  allowedOrigins: readonly string[];
}

/** A Host header that can be written into a header as is: a name or an address, and a port. */
const HOST_PATTERN = /^(?:[a-z0-9.-]{1,253}|\[[0-9a-f:.]{2,45}\])(?::\d{1,5})?$/i;

/** `https://a.example` → `wss://a.example`; `http://x.onion` → `ws://x.onion`. */
function socketOrigin(origin: string): string {
  return origin.replace(/^http/, 'ws');
}

/** The Content-Security-Policy for a request to `host` (its Host header, if usable). */
export function contentSecurityPolicy(
  options: SecurityHeaderOptions,
  host: string | undefined,
): string {
  const connect = ["'self'"];
  if (host !== undefined && HOST_PATTERN.test(host)) {
    connect.push(options.tls ? `wss://${host}` : `ws://${host}`);
    if (!options.tls) connect.push(`wss://${host}`);
  }
  for (const origin of options.allowedOrigins) connect.push(origin, socketOrigin(origin));
  const directives = [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    `connect-src ${[...new Set(connect)].join(' ')}`,
    "worker-src 'self' blob:",
    "font-src 'self' data:",
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    ...(options.tls ? ['upgrade-insecure-requests'] : []),
  ];
  return directives.join('; ');
}

/** Distinct Host headers whose Content-Security-Policy is kept; past this it is built each time. */
const CSP_CACHE_SIZE = 64;

/** What the headers are written onto: a response, or a list of them for an answer by hand. */
export interface HeaderTarget {
  setHeader(name: string, value: string | number | readonly string[]): unknown;
  removeHeader(name: string): unknown;
}

/** Writes the security headers onto a response; `host` is the request's Host header. */
export type SecurityHeaderWriter = (response: HeaderTarget, host: string | undefined) => void;

/**
 * helmet's headers for these options. None of them depends on the request, so helmet runs once,
 * here, against a recorder: calling its middleware on every request cost about a fifth of the
 * cheapest request's CPU.
 */
function helmetHeaders(options: SecurityHeaderOptions) {
  const middleware = helmet({
    contentSecurityPolicy: false,
    strictTransportSecurity: options.tls ? undefined : false,
    crossOriginEmbedderPolicy: false,
  });
  const set: [string, string][] = [];
  const removed: string[] = [];
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      set.push([name.toLowerCase(), String(value)]);
      return recorder;
    },
    removeHeader(name: string) {
      removed.push(name.toLowerCase());
    },
  };
  let failure: unknown = null;
  middleware(
    {} as IncomingMessage,
    recorder as unknown as ServerResponse,
    (error?: unknown) => (failure = error ?? null),
  );
  if (failure !== null) throw new Error('security headers: helmet refused its own options');
  return { set, removed };
}

/** The security headers, computed once for the options and once per Host header (cached). */
export function securityHeaderWriter(options: SecurityHeaderOptions): SecurityHeaderWriter {
  const { set, removed } = helmetHeaders(options);
  const policies = new Map<string, string>();
  const policyFor = (host: string | undefined) => {
    const key = host ?? '';
    let policy = policies.get(key);
    if (policy === undefined) {
      policy = contentSecurityPolicy(options, host);
      if (policies.size < CSP_CACHE_SIZE) policies.set(key, policy);
    }
    return policy;
  };
  return (response, host) => {
    response.setHeader('content-security-policy', policyFor(host));
    response.setHeader('permissions-policy', PERMISSIONS_POLICY);
    for (const [name, value] of set) response.setHeader(name, value);
    for (const name of removed) response.removeHeader(name);
  };
}

/** Sets the security headers on every response; returns the writer for answers made before Fastify. */
export function registerSecurityHeaders(
  app: FastifyInstance,
  options: SecurityHeaderOptions,
): SecurityHeaderWriter {
  const writeHeaders = securityHeaderWriter(options);
  app.addHook('onRequest', (request, reply, done) => {
    writeHeaders(reply.raw, request.headers.host);
    done();
  });
  return writeHeaders;
}
