/**
 * The one name of a visitor (DESIGN.md principle 7). Every per-visitor quota, lockout, cap and
 * sanction is keyed by what this module returns, so a visitor cannot escape a limit by choosing
 * another of the addresses they hold:
 * - an IPv4 address is the visitor (an IPv4-mapped IPv6 address, `::ffff:a.b.c.d`, is its IPv4);
 * - an IPv6 address stands for its /64, the usual allocation of one subscriber: a host picks
 *   addresses in its /64 at will (privacy extensions, a script cycling through 2^64 of them);
 * - a connection from the onion entrance is its rendezvous circuit (server/lib/onion-socket.ts),
 *   never an IPv6 /64: all circuit addresses share one /96, and they are different visitors.
 *
 * The key is the text limits store and compare, and the rate-limit store's key (so it keeps the
 * exact forms `a.b.c.d`, `x:x:x:x::/64` and `circuit:fc00:dead:beef:4dad::…` it has always had).
 * Key sessions (key holders) are named by their key id elsewhere; this is the name of everyone.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { onionCircuitOf } from './onion-socket.js';

/** The prefix of an onion visitor's key; the rest is the circuit's address. */
const CIRCUIT_PREFIX = 'circuit:';

/**
 * The key every onion visitor shares where a per-circuit count would be no limit: a new circuit
 * costs an attacker a few seconds (the admin password lockout, {@link passwordGuesser}).
 */
export const ALL_ONION_VISITORS = 'onion';

/**
 * The visitor of a connection whose peer is `address` (as the server reads it: Fastify's
 * `request.ip`, or the upgrade's address under TRUST_PROXY) on the TCP `socket`, when known.
 */
export function visitorKey(address: string, socket: object | null = null): string {
  const circuit = onionCircuitOf(socket);
  if (circuit !== null) return `${CIRCUIT_PREFIX}${circuit}`;
  return addressKey(address);
}

/** The visitor of an HTTP request (Fastify's, or anything with its `ip` and raw socket). */
export function visitorOfRequest(request: { ip: string; raw: { socket: object } }): string {
  return visitorKey(request.ip, request.raw.socket);
}

/** The visitor of a realtime socket, named once when it was admitted (server/realtime/routes.ts). */
export function visitorOfConnection(connection: { readonly visitor: string }): string {
  return connection.visitor;
}

/** True for the key of a visitor that came through the onion entrance. */
export function isOnionVisitor(visitor: string): boolean {
  return visitor.startsWith(CIRCUIT_PREFIX);
}

/**
 * Who an admin password guess is counted against: the visitor, except that onion visitors share
 * one bucket ({@link ALL_ONION_VISITORS}). Counting password guesses per circuit would let anyone
 * guess without limit over Tor. (An onion visitor can then lock the console's password login for
 * other onion visitors only; the admin can still log in from any other address or with a key.)
 */
export function passwordGuesser(request: { ip: string; raw: { socket: object } }): string {
  const visitor = visitorOfRequest(request);
  return isOnionVisitor(visitor) ? ALL_ONION_VISITORS : visitor;
}

/** The visitor of a peer address alone: IPv4 as it is, IPv6 as its /64, anything else as given. */
export function addressKey(address: string): string {
  const ip = address.toLowerCase();
  if (isIPv4(ip)) return ip;
  // A zone (`fe80::1%eth0`) names an interface of this host, not a different visitor.
  const bare = ip.includes('%') ? ip.slice(0, ip.indexOf('%')) : ip;
  if (!isIPv6(bare)) return ip;
  const groups = ipv6Groups(bare);
  const isMapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (isMapped) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (any compressed form, dotted tail included). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0');
  return [...left, ...middle, ...right].map((group) => Number.parseInt(group, 16));
}
