/**
 * How long the HTTP server waits for a client (DESIGN.md principle 7: every request, body and
 * socket is bounded in time). Node's and Fastify's defaults wait for ever on a request's body
 * (Fastify's `requestTimeout` is 0) and check the other deadlines only every 30 s, so a client
 * that opens connections and sends nothing, or a byte now and then (slowloris), held them, and
 * whatever they counted against, without end.
 *
 * A WebSocket is an HTTP request only until its upgrade: `ws` then sets its socket's timeout to 0
 * and the hub's ping keep-alive (server/realtime/routes.ts) watches it instead, so none of these
 * deadlines ends a chat socket.
 */
import { UPLOAD_HOLD_MS } from '../features/images/index.js';

export interface HttpTimeouts {
  /** A request's headers must all have arrived within this many ms of its first byte. */
  headersMs: number;
  /** A request, headers and body, must all have arrived within this many ms (Node answers 408). */
  requestMs: number;
  /** A socket that receives and sends nothing for this many ms is closed, mid-request or not. */
  idleSocketMs: number;
  /** A kept-alive connection waits this long for its next request. */
  keepAliveMs: number;
}

/**
 * The defaults:
 * - headers 15 s: a browser sends them in one packet; 15 s leaves room for a slow Tor circuit.
 * - request 200 s: the longest legitimate request is an image upload, up to about 10.5 MiB
 *   (IMAGE_MAX_BYTES with thumbnail and framing), which the upload route itself cuts once its
 *   quota hold ends (UPLOAD_HOLD_MS, 180 s: about 0.5 Mbit/s at the full size). The request
 *   deadline comes 20 s later, so the route's cut, which gives the quota back at once, is the one
 *   that acts; every other body (256 KiB at most) is cut at this bound too.
 * - idle socket 30 s: a connection on which nothing moves for 30 s, in either direction, is not
 *   a slow client but an absent one (a slow upload sends something every few seconds).
 * - keep-alive 65 s: longer than the 60 s idle timeout of common load balancers, so that the
 *   proxy, not this server, closes an idle connection (else a request can race the close).
 */
export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = {
  headersMs: 15_000,
  requestMs: UPLOAD_HOLD_MS + 20_000,
  idleSocketMs: 30_000,
  keepAliveMs: 65_000,
};

/**
 * Node checks the header and request deadlines of open connections this often (default 30 s,
 * which would let a deadline overrun by that much). One pass over the connections list a second
 * is cheap; a test's short deadlines are checked more often.
 */
const MAX_CHECK_INTERVAL_MS = 1_000;

/** Options for Node's `http(s).createServer`: the deadlines Fastify does not set itself. */
export interface NodeServerTimeouts {
  headersTimeout: number;
  requestTimeout: number;
  connectionsCheckingInterval: number;
}

/** The Fastify options (and Node server options, under `http` or `https`) for `timeouts`. */
export function serverTimeoutOptions(timeouts: HttpTimeouts): {
  fastify: { requestTimeout: number; connectionTimeout: number; keepAliveTimeout: number };
  node: NodeServerTimeouts;
} {
  const headersMs = Math.min(timeouts.headersMs, timeouts.requestMs);
  return {
    fastify: {
      requestTimeout: timeouts.requestMs,
      connectionTimeout: timeouts.idleSocketMs,
      keepAliveTimeout: timeouts.keepAliveMs,
    },
    node: {
      headersTimeout: headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: Math.max(
        50,
        Math.min(MAX_CHECK_INTERVAL_MS, Math.floor(headersMs / 4)),
      ),
    },
  };
}
