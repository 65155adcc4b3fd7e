/**
 * Refuses login verifications before Fastify while the verification queue is full (issue 22,
 * target 2). During a burst of logins most verifications past the bound are refused; inside
 * Fastify each refusal still went through routing, the global rate limit, the hooks, a child
 * logger and a serializer. Here it costs Node's HTTP parsing and one small answer, so a burst
 * holds the event loop, and chat, for a fraction of the time.
 *
 * The answer is the one the route's own check gives (routes.ts): 503, `Retry-After`, the JSON
 * `{error}` with TEXT.loginBusy, and the security headers every response carries. Nothing is
 * admitted here: a verification that passes goes on to Fastify, which takes its place once the
 * body has arrived (routes.ts), so the bound is enforced in one place and a request that slips
 * between the checks is still refused there.
 */
import type { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { TEXT } from '../../../shared/protocol/errors.js';
import { visitorKey } from '../../lib/visitor.js';
import type { SecurityHeaderWriter } from '../../plugins/security-headers.js';
import type { LoginAdmission } from './login-admission.js';

/** The route whose requests are checked (POST, exactly this path: clients never add a query). */
export const VERIFY_PATH = '/api/auth/verify';

const BUSY_BODY = Buffer.from(JSON.stringify({ error: TEXT.loginBusy }));

type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

export interface EarlyRefusalOptions {
  admission: Pick<LoginAdmission, 'refusal'>;
  writeSecurityHeaders: SecurityHeaderWriter;
  /**
   * The visitor of a raw request, as the route's check names it (server/lib/visitor.ts), or null
   * when only Fastify can tell (behind a trusted proxy): then only the global bound is checked
   * here, and the per-visitor bound stays with the route.
   */
  visitorOf: (request: IncomingMessage) => string | null;
}

/**
 * Puts the early refusal in front of the server's one `request` listener (Fastify's handler).
 * Other listeners, such as `upgrade` for WebSockets, are left alone.
 */
/** `server`: Fastify's HTTP or HTTPS server (`app.server`). */
export function refuseBusyLoginsEarly(server: EventEmitter, options: EarlyRefusalOptions): void {
  const listeners = server.listeners('request') as RequestListener[];
  if (listeners.length !== 1) {
    throw new Error(
      `early login refusal: expected one request listener, found ${listeners.length}`,
    );
  }
  const [handle] = listeners as [RequestListener];
  server.removeListener('request', handle);
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (request.method === 'POST' && request.url === VERIFY_PATH) {
      const retryAfterSeconds = options.admission.refusal(options.visitorOf(request));
      if (retryAfterSeconds !== null) {
        options.writeSecurityHeaders(response, request.headers.host);
        response.writeHead(503, {
          'retry-after': String(retryAfterSeconds),
          'content-type': 'application/json; charset=utf-8',
          'content-length': BUSY_BODY.length,
        });
        // The body is not read: Node discards what arrives and keeps the connection usable.
        response.end(BUSY_BODY);
        return;
      }
    }
    handle.call(server, request, response);
  });
}

/**
 * The visitor (server/lib/visitor.ts) as the route names it when no proxy is trusted: the socket's
 * peer, or its onion circuit.
 */
export function socketPeer(request: IncomingMessage): string | null {
  const address = request.socket.remoteAddress;
  return address === undefined ? null : visitorKey(address, request.socket);
}
