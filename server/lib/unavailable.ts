/**
 * Recognises the errors that mean "PostgreSQL or Redis cannot be reached right now" (DESIGN.md
 * principle 10), so that one place answers them as a temporary outage (HTTP 503 with
 * `Retry-After`, a WebSocket `error` frame saying so) instead of a crash (500). Drivers report an
 * outage in several shapes: a socket error code, a server's SQLSTATE during shutdown, or only a
 * fixed message; wrappers (Drizzle's query error) keep the driver's error as `cause`.
 */

/** Socket errors: the server is not listening, went away, or cannot be reached. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL SQLSTATEs of a server that is shutting down, starting or out of connections:
 * class 08 (connection exception), 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03
 * cannot_connect_now, 53300 too_many_connections.
 */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** Messages that `pg` and `ioredis` give their connection failures, which carry no code. */
const MESSAGES = [
  // pg
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  // ioredis (with enableOfflineQueue off, a command while disconnected fails at once)
  "Stream isn't writeable",
  'Connection is closed.',
  'LOADING ',
];

/** True when `error`, or an error it wraps, says PostgreSQL or Redis is unreachable right now. */
export function isDependencyUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 4) return false;
  if (error.name === 'MaxRetriesPerRequestError') return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || isConnectionSqlState(code))) {
    return true;
  }
  if (MESSAGES.some((text) => error.message.startsWith(text))) return true;
  if (error instanceof AggregateError) {
    return error.errors.some((inner: unknown) => isDependencyUnavailable(inner, depth + 1));
  }
  return isDependencyUnavailable(error.cause, depth + 1);
}

function isConnectionSqlState(code: string): boolean {
  return SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code);
}

/** Seconds a client is asked to wait (`Retry-After`) before trying again. */
export const RETRY_AFTER_SECONDS = 5;
