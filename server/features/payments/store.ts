/**
 * The payment state machine's rows (migration 0010). Every change is one conditional UPDATE
 * (or a short transaction) whose WHERE clause names the states it may leave, so a transition
 * happens once even when several requests or processes race, and never goes backwards.
 */
import { and, eq, inArray, isNotNull, isNull, lt, lte, or } from 'drizzle-orm';
import type { PaymentStatus } from '../../../shared/protocol/http/payments.js';
import type { Db } from '../../db/connect.js';
import { payments } from '../../db/schema.js';
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
  insert(row: NewPaymentRow): Promise<void>;
  find(idHash: string): Promise<PaymentRow | null>;
  findByProviderRef(provider: string, providerRef: string): Promise<PaymentRow | null>;
  /** Applies what the chain reports, if the payment may still move there; the row after. */
  applyObservation(
    idHash: string,
    observation: ChainObservation,
    now: Date,
  ): Promise<PaymentRow | null>;
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
    result: { keyId: string; keyFile: Uint8Array },
    now: Date,
    register: (db: Db) => Promise<void>,
  ): Promise<boolean>;
  /** generating → confirmed for the holder of `claim`, after a failed generation. */
  releaseGeneration(idHash: string, claim: string, now: Date): Promise<void>;
  /**
   * Takes the sealed key file out of the row and erases it in the same transaction: the first
   * caller gets it, everyone after gets null. Files ready before `readySince` are not served.
   */
  takeKeyFile(
    idHash: string,
    now: Date,
    readySince: Date,
  ): Promise<{ keyFile: Uint8Array; keyId: string } | null>;
  /** Erases key files ready before `readyBefore` that nobody downloaded; how many. */
  eraseStaleKeyFiles(readyBefore: Date, now: Date): Promise<number>;
  /** Expires every pending payment whose `expires_at` is at or before `before`; how many. */
  expireDue(before: Date, now: Date): Promise<number>;
  /** Deletes expired and failed payments created before `before`. */
  deleteEnded(before: Date): Promise<void>;
}

export function createPaymentStore(db: Db): PaymentStore {
  const first = (rows: PaymentRow[]) => rows[0] ?? null;
  return {
    insert: async (row) => {
      await db.insert(payments).values(row);
    },
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
    completeGeneration: async (idHash, claim, result, now, register) =>
      db.transaction(async (tx) => {
        const done = await tx
          .update(payments)
          .set({
            status: 'ready',
            keyId: result.keyId,
            keyFile: result.keyFile,
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
    takeKeyFile: async (idHash, now, readySince) =>
      db.transaction(async (tx) => {
        const rows = await tx
          .select({
            keyFile: payments.keyFile,
            keyId: payments.keyId,
            readyAt: payments.keyReadyAt,
          })
          .from(payments)
          .where(and(eq(payments.idHash, idHash), isNotNull(payments.keyFile)))
          .for('update');
        const row = rows[0];
        if (!row?.keyFile || !row.keyId) return null;
        const isFresh = row.readyAt !== null && row.readyAt > readySince;
        await tx
          .update(payments)
          .set({
            keyFile: null,
            keyErasedAt: now,
            ...(isFresh ? { downloadedAt: now } : {}),
            updatedAt: now,
          })
          .where(eq(payments.idHash, idHash));
        return isFresh ? { keyFile: row.keyFile, keyId: row.keyId } : null;
      }),
    eraseStaleKeyFiles: async (readyBefore, now) =>
      (
        await db
          .update(payments)
          .set({ keyFile: null, keyErasedAt: now, updatedAt: now })
          .where(and(isNotNull(payments.keyFile), lte(payments.keyReadyAt, readyBefore)))
          .returning({ idHash: payments.idHash })
      ).length,
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
