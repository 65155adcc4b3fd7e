/**
 * The payment state machine's rows (migration 0010). Every change is one conditional UPDATE
 * (or a short transaction) whose WHERE clause names the states it may leave, so a transition
 * happens once even when several requests or processes race, and never goes backwards.
 */
import { and, eq, inArray, isNull, lt, lte, notInArray, or, sql } from 'drizzle-orm';
import type { PaymentStatus } from '../../../shared/protocol/http/payments.js';
import type { Db } from '../../db/connect.js';
import { keys, payments } from '../../db/schema.js';
import type { ChainObservation } from './providers/provider.js';

export type PaymentRow = typeof payments.$inferSelect;
export type NewPaymentRow = typeof payments.$inferInsert;

/**
 * The states a chain observation may move a payment from, by the state it moves it to: only
 * forward (a confirming payment may gain confirmations).
 */
const OBSERVATION_FROM: Record<ChainObservation['status'], PaymentStatus[]> = {
  pending: ['pending'],
  confirming: ['pending', 'confirming'],
  confirmed: ['pending', 'confirming'],
  expired: ['pending'],
  failed: ['pending', 'confirming'],
};

export interface PaymentStore {
  /** False when another open payment already holds the username (the unique index). */
  insert(row: NewPaymentRow): Promise<boolean>;
  /** True when a registered key or another open payment has this username (any case). */
  isUsernameTaken(username: string): Promise<boolean>;
  /** True when a key with this id or fingerprint is registered. */
  isKeyRegistered(keyId: string, fingerprint: string): Promise<boolean>;
  /**
   * Keeps the public part (JSON) of the buyer's key with the payment, once, while the payment has
   * no key yet; false when the payment already has one or moved past confirmed.
   */
  recordPublicKey(idHash: string, keyId: string, publicKey: string, now: Date): Promise<boolean>;
  find(idHash: string): Promise<PaymentRow | null>;
  findByProviderRef(provider: string, providerRef: string): Promise<PaymentRow | null>;
  /** Applies what the chain reports, if the payment may still move there; the row after. */
  applyObservation(
    idHash: string,
    observation: ChainObservation,
    now: Date,
  ): Promise<PaymentRow | null>;
  /**
   * The processor's word alone moves on (confirmed → sending → finished, after our status
   * stopped following it): only while it is still `previous`.
   */
  recordProviderStatus(
    idHash: string,
    previous: string | null,
    next: string,
    now: Date,
  ): Promise<boolean>;
  /** pending → expired once `expires_at` has passed. */
  expireIfDue(idHash: string, now: Date): Promise<PaymentRow | null>;
  /** A sandbox broadcast: only when the paid amount is still `previousPaid` (no lost update). */
  recordSandboxPayment(
    idHash: string,
    change: {
      previousPaid: string | null;
      paidAmount: string;
      transactionHash: string;
      broadcastAt: Date | null;
      status: 'pending' | 'confirming';
    },
    now: Date,
  ): Promise<PaymentRow | null>;
  /** confirmed → generating (or a stale generating claim taken over); true for the one winner. */
  claimGeneration(idHash: string, claim: string, now: Date, staleBefore: Date): Promise<boolean>;
  /**
   * generating → ready for the holder of `claim`, in one transaction with `register` (which
   * registers the key in the same database); false when the claim was lost.
   */
  completeGeneration(
    idHash: string,
    claim: string,
    now: Date,
    register: (db: Db) => Promise<void>,
  ): Promise<boolean>;
  /** generating → confirmed for the holder of `claim`, after a failed generation. */
  releaseGeneration(idHash: string, claim: string, now: Date): Promise<void>;
  /** Expires every pending payment whose `expires_at` is at or before `before`; how many. */
  expireDue(before: Date, now: Date): Promise<number>;
  /** Deletes expired and failed payments created before `before`. */
  deleteEnded(before: Date): Promise<void>;
}

export function createPaymentStore(db: Db): PaymentStore {
  const first = (rows: PaymentRow[]) => rows[0] ?? null;
  return {
    insert: async (row) =>
      (
        await db
          .insert(payments)
          .values(row)
          .onConflictDoNothing()
          .returning({ idHash: payments.idHash })
      ).length === 1,
    isUsernameTaken: async (username) => {
      const name = username.toLowerCase();
      const key = await db
        .select({ keyId: keys.keyId })
        .from(keys)
        .where(sql`lower(${keys.username}) = ${name}`)
        .limit(1);
      if (key.length > 0) return true;
      const open = await db
        .select({ idHash: payments.idHash })
        .from(payments)
        .where(
          and(
            sql`lower(${payments.username}) = ${name}`,
            notInArray(payments.status, ['expired', 'failed']),
          ),
        )
        .limit(1);
      return open.length > 0;
    },
    isKeyRegistered: async (keyId, fingerprint) =>
      (
        await db
          .select({ keyId: keys.keyId })
          .from(keys)
          .where(or(eq(keys.keyId, keyId), eq(keys.fingerprint, fingerprint)))
          .limit(1)
      ).length > 0,
    recordPublicKey: async (idHash, keyId, publicKey, now) =>
      (
        await db
          .update(payments)
          .set({ keyId, publicKey, updatedAt: now })
          .where(
            and(
              eq(payments.idHash, idHash),
              isNull(payments.publicKey),
              inArray(payments.status, ['pending', 'confirming', 'confirmed']),
            ),
          )
          .returning({ idHash: payments.idHash })
      ).length === 1,
    find: async (idHash) =>
      first(await db.select().from(payments).where(eq(payments.idHash, idHash)).limit(1)),
    findByProviderRef: async (provider, providerRef) =>
      first(
        await db
          .select()
          .from(payments)
          .where(
            and(
              eq(payments.provider, provider as PaymentRow['provider']),
              eq(payments.providerRef, providerRef),
            ),
          )
          .limit(1),
      ),
    applyObservation: async (idHash, observation, now) =>
      first(
        await db
          .update(payments)
          .set({
            status: observation.status,
            confirmations: observation.confirmations,
            ...(observation.transactionHash !== null
              ? { transactionHash: observation.transactionHash }
              : {}),
            ...(observation.paidAmount !== null ? { paidAmount: observation.paidAmount } : {}),
            ...(observation.providerStatus ? { providerStatus: observation.providerStatus } : {}),
            providerCheckedAt: now,
            updatedAt: now,
          })
          .where(
            and(
              eq(payments.idHash, idHash),
              inArray(payments.status, OBSERVATION_FROM[observation.status]),
            ),
          )
          .returning(),
      ),
    recordProviderStatus: async (idHash, previous, next, now) =>
      (
        await db
          .update(payments)
          .set({ providerStatus: next, updatedAt: now })
          .where(
            and(
              eq(payments.idHash, idHash),
              previous === null
                ? isNull(payments.providerStatus)
                : eq(payments.providerStatus, previous),
            ),
          )
          .returning({ idHash: payments.idHash })
      ).length === 1,
    expireIfDue: async (idHash, now) =>
      first(
        await db
          .update(payments)
          .set({ status: 'expired', updatedAt: now })
          .where(
            and(
              eq(payments.idHash, idHash),
              eq(payments.status, 'pending'),
              lte(payments.expiresAt, now),
            ),
          )
          .returning(),
      ),
    recordSandboxPayment: async (idHash, change, now) =>
      first(
        await db
          .update(payments)
          .set({
            paidAmount: change.paidAmount,
            transactionHash: change.transactionHash,
            broadcastAt: change.broadcastAt,
            status: change.status,
            confirmations: 0,
            updatedAt: now,
          })
          .where(
            and(
              eq(payments.idHash, idHash),
              eq(payments.status, 'pending'),
              change.previousPaid === null
                ? isNull(payments.paidAmount)
                : eq(payments.paidAmount, change.previousPaid),
            ),
          )
          .returning(),
      ),
    claimGeneration: async (idHash, claim, now, staleBefore) => {
      const claimed = await db
        .update(payments)
        .set({
          status: 'generating',
          generationClaim: claim,
          generationStartedAt: now,
          updatedAt: now,
        })
        .where(
          and(
            eq(payments.idHash, idHash),
            or(
              eq(payments.status, 'confirmed'),
              and(
                eq(payments.status, 'generating'),
                lte(payments.generationStartedAt, staleBefore),
              ),
            ),
          ),
        )
        .returning({ idHash: payments.idHash });
      return claimed.length === 1;
    },
    completeGeneration: async (idHash, claim, now, register) =>
      db.transaction(async (tx) => {
        const done = await tx
          .update(payments)
          .set({
            status: 'ready',
            keyReadyAt: now,
            generationClaim: null,
            updatedAt: now,
          })
          .where(
            and(
              eq(payments.idHash, idHash),
              eq(payments.status, 'generating'),
              eq(payments.generationClaim, claim),
            ),
          )
          .returning({ idHash: payments.idHash });
        if (done.length !== 1) return false;
        // A transaction handle is a database handle for the auth store: the key is registered
        // if and only if the payment becomes ready.
        await register(tx as unknown as Db);
        return true;
      }),
    releaseGeneration: async (idHash, claim, now) => {
      await db
        .update(payments)
        .set({ status: 'confirmed', generationClaim: null, updatedAt: now })
        .where(
          and(
            eq(payments.idHash, idHash),
            eq(payments.status, 'generating'),
            eq(payments.generationClaim, claim),
          ),
        );
    },
    expireDue: async (before, now) =>
      (
        await db
          .update(payments)
          .set({ status: 'expired', updatedAt: now })
          .where(and(eq(payments.status, 'pending'), lte(payments.expiresAt, before)))
          .returning({ idHash: payments.idHash })
      ).length,
    deleteEnded: async (before) => {
      await db
        .delete(payments)
        .where(
          and(inArray(payments.status, ['expired', 'failed']), lt(payments.createdAt, before)),
        );
    },
  };
}
