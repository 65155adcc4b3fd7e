/** The bound in front of the verify pool (server/features/auth/login-admission.ts). */
import { describe, expect, it } from 'vitest';
import {
  LoginAdmission,
  type Admission,
  type LoginTicket,
  type VerifyQueue,
} from '../../../server/features/auth/login-admission.js';

const pool = (pending = 0, jobMs = 1, size = 1): VerifyQueue => ({ pending, jobMs, size });

function ticketOf(admission: Admission): LoginTicket {
  if (!admission.admitted) throw new Error('refused');
  return admission.ticket;
}

describe('login admission', () => {
  it('admits up to the bound per visitor and in all, then refuses', () => {
    const admission = new LoginAdmission(pool(), { maxPending: 3, maxPendingPerVisitor: 2 });
    ticketOf(admission.admit('a'));
    ticketOf(admission.admit('a'));
    expect(admission.admit('a').admitted).toBe(false);
    ticketOf(admission.admit('b'));
    expect(admission.admit('c').admitted).toBe(false);
    expect(admission.pending).toBe(3);
  });

  it('says when a verification would be refused without taking a place', () => {
    const admission = new LoginAdmission(pool(), { maxPending: 2, maxPendingPerVisitor: 1 });
    expect(admission.refusal('a')).toBeNull();
    ticketOf(admission.admit('a'));
    expect(admission.refusal('a')).toBeGreaterThanOrEqual(1);
    // Without a visitor only the global bound counts.
    expect(admission.refusal(null)).toBeNull();
    expect(admission.refusal('b')).toBeNull();
    expect(admission.pending).toBe(1);
    ticketOf(admission.admit('b'));
    expect(admission.refusal(null)).toBeGreaterThanOrEqual(1);
  });

  it('gives a place back once, however often it is released', () => {
    const admission = new LoginAdmission(pool(), { maxPending: 2, maxPendingPerVisitor: 2 });
    const first = ticketOf(admission.admit('a'));
    ticketOf(admission.admit('a'));
    first.release();
    first.release();
    expect(admission.pending).toBe(1);
    ticketOf(admission.admit('a'));
    expect(admission.admit('a').admitted).toBe(false);
  });

  it("counts the pool's own jobs, which outlive a client that went away", () => {
    const admission = new LoginAdmission(pool(5), { maxPending: 5, maxPendingPerVisitor: 5 });
    expect(admission.admit('a').admitted).toBe(false);
  });

  it('announces the wait of the work ahead, from 1 to 30 seconds', () => {
    const limits = { maxPending: 1, maxPendingPerVisitor: 1 };
    const quick = new LoginAdmission(pool(1, 2), limits);
    expect(quick.admit('a')).toEqual({ admitted: false, retryAfterSeconds: 1 });
    const slow = new LoginAdmission(pool(1000, 5, 2), {
      maxPending: 1000,
      maxPendingPerVisitor: 1,
    });
    expect(slow.admit('a')).toEqual({ admitted: false, retryAfterSeconds: 3 });
    const stuck = new LoginAdmission(pool(1000, 500), {
      maxPending: 1000,
      maxPendingPerVisitor: 1,
    });
    expect(stuck.admit('a')).toEqual({ admitted: false, retryAfterSeconds: 30 });
  });
});
