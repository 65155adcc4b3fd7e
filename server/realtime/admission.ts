/**
 * Who may open a realtime socket, decided from the upgrade request's headers before the upgrade:
 * - the `Origin` a browser sends must be the page's own host or one of ALLOWED_ORIGINS, so a page
 *   on another site cannot open sockets with a visitor's browser (cross-site WebSocket hijacking);
 *   a request without `Origin` is not a browser page and passes (the caps below still hold);
 * - each visitor (server/lib/visitor.ts: an IPv4 address, an IPv6 /64) holds at most
 *   MAX_SOCKETS_PER_ADDRESS open sockets. Onion visitors arriving through the onion entrance are
 *   counted per circuit, against a much smaller cap ({@link ONION_SOCKETS_PER_CIRCUIT}: a Tor
 *   client opens circuits at will, so a circuit is a cheap name), and all together against
 *   MAX_ONION_SOCKETS, the share of the process's sockets onion visitors may hold as a group, so
 *   that however many circuits one Tor client opens, clearnet visitors keep the rest; onion
 *   visitors forwarded by some other tor straight to the app's port cannot be told apart and share
 *   MAX_ONION_SOCKETS alone.
 * Counting is synchronous (one event-loop turn checks and takes the slot), so concurrent upgrades
 * cannot overshoot, and the slot is given back when the TCP connection closes, whatever happened.
 */
import type { Socket } from 'node:net';
import { isOnionVisitor } from '../lib/visitor.js';

export const ADMISSION_TEXT = {
  badOrigin: 'Origin not allowed',
  tooManySockets: 'Too many connections from this address',
} as const;

/** True when a browser page at `origin` may open a socket on the server reached as `host`. */
export function isOriginAllowed(
  origin: string | undefined,
  host: string | undefined,
  allowed: readonly string[],
): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (host !== undefined && url.host === host.toLowerCase()) return true;
  return allowed.includes(url.origin);
}

/** True for an address of this machine (IPv4 127/8, IPv6 ::1, and IPv4-mapped loopback). */
export function isLoopback(address: string): boolean {
  return address === '::1' || /^(::ffff:)?127\./.test(address);
}

/** The shared bucket every onion socket also counts against (MAX_ONION_SOCKETS). */
export const ONION_BUCKET = 'onion';

/**
 * Open sockets one onion circuit may hold (per process; never more than MAX_SOCKETS_PER_ADDRESS).
 * Tor Browser puts every tab of one site on one circuit, and one tab holds one socket: four leave
 * room for a few tabs and a reconnect that overlaps the socket it replaces. Small, because a Tor
 * client gets a new circuit in seconds: with 50 a circuit, 20 circuits filled 1000 onion slots;
 * with 4 it takes 250, and tor's own defences (the torrc's intro-rate limit and proof of work,
 * server/features/tor/torrc.ts) slow down opening that many.
 */
export const ONION_SOCKETS_PER_CIRCUIT = 4;

/** The caps of a {@link SocketCounter}. */
export interface SocketCaps {
  /** Per clearnet visitor (`ip:` buckets): MAX_SOCKETS_PER_ADDRESS. */
  perAddress: number;
  /** Per onion circuit (`circuit:` buckets); the smaller of this and `perAddress` holds. */
  perCircuit?: number;
  /** All onion visitors together ({@link ONION_BUCKET}): MAX_ONION_SOCKETS. */
  onion: number;
}

/**
 * The buckets a socket of `visitor` (server/lib/visitor.ts) counts against: the visitor; for a
 * circuit from the onion entrance that and the shared onion bucket; for an onion host reached
 * from loopback without the entrance, the shared onion bucket alone.
 */
export function socketBuckets(
  visitor: string,
  host: string | undefined,
  address: string = visitor,
): string[] {
  if (isOnionVisitor(visitor)) return [visitor, ONION_BUCKET];
  const hostname = (host ?? '').toLowerCase().replace(/:\d+$/, '');
  return hostname.endsWith('.onion') && isLoopback(address) ? [ONION_BUCKET] : [`ip:${visitor}`];
}

/** Open sockets per bucket, for this process. */
export class SocketCounter {
  private readonly open = new Map<string, number>();
  private readonly perCircuit: number;

  constructor(private readonly caps: SocketCaps) {
    this.perCircuit = Math.min(caps.perCircuit ?? ONION_SOCKETS_PER_CIRCUIT, caps.perAddress);
  }

  /**
   * Takes a slot in every one of `buckets` when each has one free and ties their release to
   * `connection` closing; false (nothing taken) when any is full.
   */
  tryAcquire(buckets: string | readonly string[], connection: Pick<Socket, 'once'>): boolean {
    const all = typeof buckets === 'string' ? [buckets] : buckets;
    for (const bucket of all) {
      const cap = this.capOf(bucket);
      if ((this.open.get(bucket) ?? 0) >= cap) return false;
    }
    for (const bucket of all) this.open.set(bucket, (this.open.get(bucket) ?? 0) + 1);
    connection.once('close', () => {
      for (const bucket of all) this.release(bucket);
    });
    return true;
  }

  private capOf(bucket: string): number {
    if (bucket === ONION_BUCKET) return this.caps.onion;
    return isOnionVisitor(bucket) ? this.perCircuit : this.caps.perAddress;
  }

  /** Sockets open in `bucket`. */
  count(bucket: string): number {
    return this.open.get(bucket) ?? 0;
  }

  private release(bucket: string): void {
    const left = (this.open.get(bucket) ?? 1) - 1;
    if (left > 0) this.open.set(bucket, left);
    else this.open.delete(bucket);
  }
}
