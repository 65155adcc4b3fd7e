/**
 * The bounded queue in front of the verify pool (issue 22, target 2). A login verification is
 * checked against the bound when its headers arrive (`refusal`, nothing taken), takes a place
 * once its whole body has arrived (`admit`), and gives it back when its answer has gone out.
 * Taking the place only with the body means that requests which send headers and then little or
 * nothing hold no place: 256 such idle requests once kept every other login at 503 (issue 31).
 * Past the bound, all visitors together or one visitor (server/lib/visitor.ts), the request is
 * refused at once with 503 and `Retry-After`: logins beyond capacity wait in the client, never in
 * the server's event loop, so chat keeps its latency during a burst. The check and the taking are
 * one synchronous step, so two requests can never both take the last place.
 */

/** What the admission reads from the pool to estimate the wait it announces. */
export interface VerifyQueue {
  /** Jobs waiting or running in the pool. */
  readonly pending: number;
  /** Worker threads at most. */
  readonly size: number;
  /** Running mean of one job's time in a worker, in milliseconds. */
  readonly jobMs: number;
}

export interface LoginAdmissionLimits {
  /** Verifications admitted and not yet answered, all visitors together. */
  maxPending: number;
  /** The same, for one visitor (an IPv4 address, an IPv6 /64, an onion circuit). */
  maxPendingPerVisitor: number;
}

/** Defaults: a quarter of a second of verification work at native speed on one worker. */
export const DEFAULT_LOGIN_ADMISSION: LoginAdmissionLimits = {
  maxPending: 256,
  maxPendingPerVisitor: 8,
};

/** Bounds of the announced `Retry-After`, in seconds. */
const MIN_RETRY_AFTER_SECONDS = 1;
const MAX_RETRY_AFTER_SECONDS = 30;

/** A place in the queue; `release` gives it back (more calls are ignored). */
export interface LoginTicket {
  release(): void;
}

export type Admission =
  { admitted: true; ticket: LoginTicket } | { admitted: false; retryAfterSeconds: number };

export class LoginAdmission {
  private pendingTotal = 0;
  private readonly perVisitor = new Map<string, number>();

  constructor(
    private readonly queue: VerifyQueue,
    private readonly limits: LoginAdmissionLimits = DEFAULT_LOGIN_ADMISSION,
  ) {}

  /** Verifications admitted and not yet answered. */
  get pending(): number {
    return this.pendingTotal;
  }

  /**
   * Takes a place for `visitor`, or says how long to wait. Refused when the admitted requests or
   * the pool's own jobs (which may outlive a request whose client went away) reach the bound.
   */
  admit(visitor: string): Admission {
    const retryAfterSeconds = this.refusal(visitor);
    if (retryAfterSeconds !== null) return { admitted: false, retryAfterSeconds };
    const mine = this.perVisitor.get(visitor) ?? 0;
    this.pendingTotal += 1;
    this.perVisitor.set(visitor, mine + 1);
    let released = false;
    return {
      admitted: true,
      ticket: {
        release: () => {
          if (released) return;
          released = true;
          this.pendingTotal -= 1;
          const left = (this.perVisitor.get(visitor) ?? 1) - 1;
          if (left > 0) this.perVisitor.set(visitor, left);
          else this.perVisitor.delete(visitor);
        },
      },
    };
  }

  /**
   * The `Retry-After` seconds when a verification would be refused now, for everyone or for
   * `visitor` (null: the global bound only); null when it would be admitted. Takes no place: the
   * early refusal in front of Fastify asks this, and `admit` asks it again (login-refusal.ts).
   */
  refusal(visitor: string | null): number | null {
    const full =
      this.pendingTotal >= this.limits.maxPending ||
      this.queue.pending >= this.limits.maxPending ||
      (visitor !== null && (this.perVisitor.get(visitor) ?? 0) >= this.limits.maxPendingPerVisitor);
    return full ? this.retryAfterSeconds() : null;
  }

  /** The time the work already admitted takes the pool, rounded up to whole seconds. */
  private retryAfterSeconds(): number {
    const ahead = Math.max(this.pendingTotal, this.queue.pending);
    const seconds = Math.ceil((ahead * this.queue.jobMs) / Math.max(1, this.queue.size) / 1000);
    return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(MIN_RETRY_AFTER_SECONDS, seconds));
  }
}
