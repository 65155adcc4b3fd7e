/**
 * The visitor a member's held messages count against (DESIGN.md principle 7: one visitor, one
 * name, every limit). One function, so that the held-message budget follows the server's single
 * visitor naming when it moves; today that is the HTTP rate limiter's key: the onion circuit for
 * a Tor visitor, otherwise the socket's address, an IPv6 address taken as its /64.
 */
import { rateLimitKey } from '../../lib/onion-socket.js';
import type { Connection } from '../../realtime/connection.js';

export function senderVisitor(connection: Connection): string {
  // The TCP socket under the WebSocket tells an onion circuit apart; test doubles have none.
  return rateLimitKey({
    ip: connection.remoteAddress,
    raw: { socket: connection.transport ?? {} },
  });
}
