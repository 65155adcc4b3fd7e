/**
 * Who may open a realtime socket, decided from the upgrade request's headers before the upgrade:
 * - the `Origin` a browser sends must be the page's own host or one of ALLOWED_ORIGINS, so a page
 *   on another site cannot open sockets with a visitor's browser (cross-site WebSocket hijacking);
 *   a request without `Origin` is not a browser page and passes (the caps below still hold);
 * - each exact client address holds at most `maxPerAddress` open sockets. Onion visitors arriving
 *   through the onion entrance are counted per circuit (their address is the circuit's,
 *   server/lib/onion-socket.ts) and all together against `maxOnion`; onion visitors forwarded
 *   by some other tor straight to the app's port cannot be told apart and share `maxOnion` alone.
 * Counting is synchronous (one event-loop turn checks and takes the slot), so concurrent upgrades
 * cannot overshoot, and the slot is given back when the TCP connection closes, whatever happened.
 */
import type { Socket } from 'node:net';

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

/** The shared bucket every onion socket also counts against. */
export const ONION_BUCKET = 'onion';

/**
 * The buckets a socket counts against: its exact address; for a circuit from the onion entrance
 * that address and the shared onion bucket; for an onion host reached from loopback without the
 * entrance, the shared onion bucket alone.
 */
export function socketBuckets(
  address: string,
  host: string | undefined,
  onionCircuit: string | null = null,
): string[] {
  if (onionCircuit !== null) return [`circuit:${onionCircuit}`, ONION_BUCKET];
  const hostname = (host ?? '').toLowerCase().replace(/:\d+$/, '');
  return hostname.endsWith('.onion') && isLoopback(address) ? [ONION_BUCKET] : [`ip:${address}`];
}

/** Open sockets per bucket, for this process. */
export class SocketCounter {
  private readonly open = new Map<string, number>();

  constructor(private readonly caps: { perAddress: number; onion: number }) {}

  /**
   * Takes a slot in every one of `buckets` when each has one free and ties their release to
   * `connection` closing; false (nothing taken) when any is full.
   */
  tryAcquire(buckets: string | readonly string[], connection: Pick<Socket, 'once'>): boolean {
    const all = typeof buckets === 'string' ? [buckets] : buckets;
    for (const bucket of all) {
      const cap = bucket === ONION_BUCKET ? this.caps.onion : this.caps.perAddress;
      if ((this.open.get(bucket) ?? 0) >= cap) return false;
    }
    for (const bucket of all) this.open.set(bucket, (this.open.get(bucket) ?? 0) + 1);
    connection.once('close', () => {
      for (const bucket of all) this.release(bucket);
    });
    return true;
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
