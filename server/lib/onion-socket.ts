/**
 * Connections that arrived through the onion service's entrance (server/features/tor/onion-entrance.ts).
 *
 * Every onion visitor reaches the server from the local tor daemon, so the peer address says
 * nothing about who they are. tor tells us the rendezvous circuit of each stream instead
 * (`HiddenServiceExportCircuitID haproxy`), encoded as an address in `fc00:dead:beef:4dad::/96`;
 * the entrance gives each connection that address as its `remoteAddress`, and every limit keyed by
 * address (HTTP rate limits, socket caps, login attempts, bot bans) then counts per circuit: one
 * flooding onion client fills its own buckets, not everyone's.
 */
import { isIPv4, isIPv6, type Socket } from 'node:net';

/** The /96 prefix tor writes circuit identifiers under (tor(1), HiddenServiceExportCircuitID). */
export const ONION_CIRCUIT_PREFIX = 'fc00:dead:beef:4dad::';

const circuits = new WeakMap<object, string>();

/** Records that `socket` came through the onion entrance on the circuit named by `address`. */
export function markOnionSocket(socket: Socket, address: string): void {
  circuits.set(socket, address);
  // What the HTTP server, Fastify's `request.ip` and every limit downstream read.
  Object.defineProperty(socket, 'remoteAddress', { value: address, configurable: true });
}

/** The circuit address of a connection that came through the onion entrance, or null. */
export function onionCircuitOf(socket: object | null | undefined): string | null {
  return socket ? (circuits.get(socket) ?? null) : null;
}

/**
 * The client a password guess is counted against. Onion visitors share one: a new circuit costs
 * an attacker a few seconds, so counting admin password guesses per circuit would let anyone
 * guess without limit over Tor. (An onion visitor can then lock the console's password login
 * for other onion visitors only; the admin can still log in from any other address or with a key.)
 */
export function guessingClient(request: { ip: string; raw: { socket: object } }): string {
  return onionCircuitOf(request.raw.socket) === null ? request.ip : 'onion';
}

/**
 * The HTTP rate limiter's key: the circuit for an onion visitor; otherwise the address, IPv6 taken
 * as its /64 (one subscriber's usual allocation) and IPv4-mapped addresses as IPv4.
 */
export function rateLimitKey(request: { ip: string; raw: { socket: object } }): string {
  const circuit = onionCircuitOf(request.raw.socket);
  if (circuit !== null) return `circuit:${circuit}`;
  const ip = request.ip.toLowerCase();
  if (isIPv4(ip)) return ip;
  if (!isIPv6(ip)) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (mapped) return mapped[1]!;
  const [head = '', tail] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = [
    ...left,
    ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'),
    ...right,
  ];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
