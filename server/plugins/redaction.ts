/**
 * What the logger must never write: tokens, passwords, key material, message content.
 * Request logs keep the method, the path and the names of query parameters, never their values,
 * because URLs carry invite tokens (`?auth=`) and payment ids.
 */

/** pino `redact` paths: headers and any field that can hold a secret. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["sec-websocket-key"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.passwordHash',
  '*.sessionToken',
  '*.token',
  '*.credential',
  '*.secret',
  '*.content',
  '*.encryptedContent',
  '*.privateKey',
  '*.dilithiumPrivateKey',
  '*.ecdsaPrivateKey',
];

/** Payment ids are credentials (they open the one-time key download): hidden in paths too. */
const PAYMENT_ID_IN_PATH = /pay_[0-9a-fA-F]+/g;

/**
 * `/room/abc?auth=secret&x=1` → `/room/abc?auth=[redacted]&x=[redacted]`;
 * `/api/crypto/download/pay_…` → `/api/crypto/download/pay_[redacted]`.
 */
export function redactUrl(rawUrl: string): string {
  const url = rawUrl.replace(PAYMENT_ID_IN_PATH, 'pay_[redacted]');
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return url;
  const names = url
    .slice(queryStart + 1)
    .split('&')
    .filter(Boolean)
    .map((pair) => `${pair.split('=')[0]}=[redacted]`);
  return `${url.slice(0, queryStart)}?${names.join('&')}`;
}

interface LoggableRequest {
  method: string;
  url: string;
  id: string;
  ip?: string;
}

/** pino serializer for requests: no headers, no body, query values hidden. */
export function serializeRequest(request: LoggableRequest) {
  return { id: request.id, method: request.method, url: redactUrl(request.url) };
}
