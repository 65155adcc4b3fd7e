/**
 * Upload quotas: bytes and images held per member (the uploading socket), per room, per visitor
 * (the `address` scope: an IPv4 address, an IPv6 /64 or an onion circuit, server/lib/visitor.ts),
 * and in all. An upload reserves its declared size in every scope at once, before its
 * body is read; the reservation shrinks to the real size once stored, follows the image's expiry
 * (a message binds it), and is given back when the upload fails or the image expires. Checking
 * and taking happen in one step (one event-loop turn in memory, one Lua script in Redis), so
 * concurrent uploads cannot overshoot a limit.
 */

export type QuotaScope = 'member' | 'room' | 'address' | 'global';

/** Bytes and images one scope may hold at once. */
export interface QuotaLimit {
  bytes: number;
  count: number;
}

export type QuotaLimits = Record<QuotaScope, QuotaLimit>;

const MIB = 1024 * 1024;
/**
 * Defaults, sized so that one visitor (every socket of one address or /64) holds at most a quarter of
 * the store and one room at most 3/8 of it; a full-size upload is about 10.5 MiB with thumbnail.
 */
export const DEFAULT_UPLOAD_QUOTAS: QuotaLimits = {
  member: { bytes: 48 * MIB, count: 6 },
  address: { bytes: 64 * MIB, count: 12 },
  room: { bytes: 96 * MIB, count: 24 },
  global: { bytes: 256 * MIB, count: 512 },
};

/** Who an upload counts against. */
export interface QuotaOwner {
  /** The uploading socket's nodeId. */
  member: string;
  roomId: string;
  /** The uploader's visitor key (server/lib/visitor.ts), not the exact address. */
  address: string;
}

export interface UploadQuota {
  /**
   * Reserves `bytes` and one image for `ticket` in every scope of `owner`, until `expiresAt`;
   * null when taken, or the first scope that is full (nothing taken then).
   */
  reserve(
    ticket: string,
    owner: QuotaOwner,
    bytes: number,
    expiresAt: number,
    now: number,
  ): Promise<QuotaScope | null>;
  /** Shrinks a reservation to what was stored, and sets its expiry. */
  settle(ticket: string, bytes: number, expiresAt: number): Promise<void>;
  /** Moves a reservation's expiry (a message bound the image). */
  extend(ticket: string, expiresAt: number): Promise<void>;
  /** Gives a reservation back (failed upload, purged room). */
  release(ticket: string): Promise<void>;
}

const SCOPES: readonly QuotaScope[] = ['member', 'room', 'address', 'global'];

/** The counter key of each scope for `owner`. */
export function scopeKeys(owner: QuotaOwner): Record<QuotaScope, string> {
  return {
    member: `m:${owner.member}`,
    room: `r:${owner.roomId}`,
    address: `a:${owner.address}`,
    global: 'g',
  };
}

interface Reservation {
  keys: string[];
  bytes: number;
  expiresAt: number;
}

export class MemoryUploadQuota implements UploadQuota {
  private readonly used = new Map<string, { bytes: number; count: number }>();
  /** Live reservations; at most `limits.global.count` of them, so sweeping them is bounded. */
  private readonly reservations = new Map<string, Reservation>();

  constructor(private readonly limits: QuotaLimits = DEFAULT_UPLOAD_QUOTAS) {}

  async reserve(
    ticket: string,
    owner: QuotaOwner,
    bytes: number,
    expiresAt: number,
    now: number,
  ): Promise<QuotaScope | null> {
    this.sweep(now);
    const keys = scopeKeys(owner);
    for (const scope of SCOPES) {
      const used = this.used.get(keys[scope]) ?? { bytes: 0, count: 0 };
      const limit = this.limits[scope];
      if (used.bytes + bytes > limit.bytes || used.count + 1 > limit.count) return scope;
    }
    const reservation = { keys: SCOPES.map((scope) => keys[scope]), bytes, expiresAt };
    this.add(reservation.keys, bytes, 1);
    this.reservations.set(ticket, reservation);
    return null;
  }

  async settle(ticket: string, bytes: number, expiresAt: number): Promise<void> {
    const reservation = this.reservations.get(ticket);
    if (!reservation) return;
    this.add(reservation.keys, bytes - reservation.bytes, 0);
    reservation.bytes = bytes;
    reservation.expiresAt = expiresAt;
  }

  async extend(ticket: string, expiresAt: number): Promise<void> {
    const reservation = this.reservations.get(ticket);
    if (reservation) reservation.expiresAt = expiresAt;
  }

  async release(ticket: string): Promise<void> {
    const reservation = this.reservations.get(ticket);
    if (!reservation) return;
    this.reservations.delete(ticket);
    this.add(reservation.keys, -reservation.bytes, -1);
  }

  /** What a scope holds now (tests, metrics). */
  usage(key: string): { bytes: number; count: number } {
    return this.used.get(key) ?? { bytes: 0, count: 0 };
  }

  private sweep(now: number): void {
    for (const [ticket, reservation] of this.reservations) {
      if (reservation.expiresAt <= now) void this.release(ticket);
    }
  }

  private add(keys: string[], bytes: number, count: number): void {
    for (const key of keys) {
      const used = this.used.get(key) ?? { bytes: 0, count: 0 };
      used.bytes += bytes;
      used.count += count;
      if (used.count <= 0) this.used.delete(key);
      else this.used.set(key, used);
    }
  }
}
