/**
 * Connections that arrived through the onion service's entrance (server/features/tor/onion-entrance.ts).
 *
 * Every onion visitor reaches the server from the local tor daemon, so the peer address says
 * nothing about who they are. tor tells us the rendezvous circuit of each stream instead
 * (`HiddenServiceExportCircuitID haproxy`), encoded as an address in `fc00:dead:beef:4dad::/96`;
 * the entrance gives each connection that address as its `remoteAddress` and marks the socket, and
 * the visitor key (server/lib/visitor.ts) that every per-visitor limit uses names the circuit: one
 * flooding onion client fills its own buckets, not everyone's.
 */
import type { Socket } from 'node:net';

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
