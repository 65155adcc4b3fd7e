/**
 * The purchase flow's state (spec 001 §2, §4, §8): the three steps, the payment and its status
 * polling (every 10 s, stopped after 60 min), key generation triggered once when the payment is
 * confirmed, the one-time download, and recovery of a payment through `?payment=` or the local
 * record after a reload.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { PAYMENT_POLL_INTERVAL_MS, PAYMENT_POLL_MAX_MS } from '../../../shared/constants.js';
import {
  PAYMENT_TEXT,
  PaymentIdSchema,
  type PaymentCurrency,
  type PaymentStatusResponse,
} from '../../../shared/protocol/http/payments.js';
import { HttpError } from '../../lib/http.js';
import { downloadTextFile } from '../../lib/download.js';
import {
  downloadKeyFile,
  fetchPaymentStatus,
  generateKey,
  generatePayment,
  sandboxPay,
} from './purchase-api.js';
import { clearPaymentRecord, readPaymentRecord, savePaymentRecord } from './payment-record.js';
import type { Tier } from './tiers.js';
import { invalidatePurchaseAvailability } from './use-purchase-availability.js';

export type PurchaseStep = 1 | 2 | 3;

/** Statuses during which the page keeps asking the server. */
const MONITORED = new Set(['pending', 'confirming', 'confirmed', 'generating']);

export interface Purchase {
  step: PurchaseStep;
  tier: Tier | null;
  currency: PaymentCurrency | null;
  payment: PaymentStatusResponse | null;
  /** The failure of the last generate-payment, shown under the button. */
  paymentError: string | null;
  /** Why a recovered payment could not be shown (then the page is back at step 1). */
  notice: string | null;
  isCreating: boolean;
  keyGenerationFailed: boolean;
  pollingStopped: boolean;
  isDownloading: boolean;
  downloaded: { fileName: string } | null;
  downloadError: string | null;
  isSending: boolean;
  chooseTier(tier: Tier): void;
  chooseCurrency(currency: PaymentCurrency): void;
  goToStep(step: 1 | 2): void;
  createPayment(): Promise<void>;
  retryKeyGeneration(): void;
  resumeMonitoring(): void;
  download(): Promise<void>;
  sandboxSend(amount: string): Promise<void>;
  startOver(): void;
}

function messageOf(error: unknown): string {
  if (error instanceof HttpError) return error.serverError ?? error.message;
  return error instanceof Error ? error.message : String(error);
}

/** True for the answer of a server that sells no keys (issue 31): the page then says so. */
function isPurchasesUnavailable(error: unknown): boolean {
  return error instanceof HttpError && error.serverError === PAYMENT_TEXT.purchasesUnavailable;
}

/** Logs a spec 001 §8 text with the HTTP status only: never a payment id, a key or a body. */
function logPurchaseError(text: string, error: unknown): void {
  const detail =
    error instanceof HttpError ? `HTTP ${error.status}` : error instanceof Error ? error.name : '';
  // eslint-disable-next-line no-console -- spec 001 §8: these failures are logged.
  console.error(`[purchase] ${text} (${detail})`);
}

export function usePurchase(): Purchase {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const search = useSearch();
  const [step, setStep] = useState<PurchaseStep>(1);
  const [tier, setTier] = useState<Tier | null>(null);
  const [currency, setCurrency] = useState<PaymentCurrency | null>(null);
  const [payment, setPayment] = useState<PaymentStatusResponse | null>(null);
  const [paymentError, setPaymentError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [isCreating, setIsCreating] = useState(false);
  const [keyGenerationFailed, setKeyGenerationFailed] = useState(false);
  const [pollingStopped, setPollingStopped] = useState(false);
  const [isDownloading, setIsDownloading] = useState(false);
  const [downloaded, setDownloaded] = useState<{ fileName: string } | null>(null);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const [isSending, setIsSending] = useState(false);
  const monitoringSince = useRef(0);
  /** Payments whose key generation this tab has already started (spec 001 §4: once). */
  const generationStarted = useRef(new Set<string>());

  const paymentId = PaymentIdSchema.safeParse(new URLSearchParams(search).get('payment'));
  const currentId = paymentId.success ? paymentId.data : null;

  const reset = useCallback(() => {
    setStep(1);
    setPayment(null);
    setDownloaded(null);
    setDownloadError(null);
    setKeyGenerationFailed(false);
    setPollingStopped(false);
  }, []);

  /** Asks the server where the payment stands; a failure forgets the payment (spec 001 §8). */
  const refresh = useCallback(
    async (id: string) => {
      try {
        const next = await fetchPaymentStatus(id);
        setPayment(next);
        setStep(3);
        // Spec 001 §4: expired or failed clears the saved session.
        if (next.status === 'expired' || next.status === 'failed') clearPaymentRecord();
      } catch (error) {
        // A server that stopped selling keys has not forgotten the payment: keep the record, and
        // let the page say that purchases are off.
        if (isPurchasesUnavailable(error)) {
          invalidatePurchaseAvailability(queryClient);
          return;
        }
        clearPaymentRecord();
        reset();
        setNotice(messageOf(error));
        navigate('/get-key', { replace: true });
      }
    },
    [navigate, reset, queryClient],
  );

  // Recovery after a reload: the query names the payment, or the local record does.
  useEffect(() => {
    if (currentId) {
      monitoringSince.current = Date.now();
      // eslint-disable-next-line react-hooks/set-state-in-effect -- refresh sets state only after the server answered.
      void refresh(currentId);
      return;
    }
    const record = readPaymentRecord();
    if (record) navigate(`/get-key?payment=${record.paymentId}`, { replace: true });
  }, [currentId, navigate, refresh]);

  // Polling every 10 s while the payment moves, stopped after 60 minutes (spec 001 §9).
  const status = payment?.status ?? null;
  useEffect(() => {
    if (!currentId || !status || !MONITORED.has(status) || pollingStopped) return;
    const timer = window.setInterval(() => {
      if (Date.now() - monitoringSince.current >= PAYMENT_POLL_MAX_MS) {
        setPollingStopped(true);
        return;
      }
      void refresh(currentId);
    }, PAYMENT_POLL_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [currentId, status, pollingStopped, refresh]);

  const runKeyGeneration = useCallback(
    async (current: PaymentStatusResponse) => {
      setKeyGenerationFailed(false);
      setPayment({ ...current, status: 'generating' });
      try {
        const answer = await generateKey(current.paymentId, current.transactionHash);
        if (answer.ok) {
          await refresh(current.paymentId);
          return;
        }
        // Spec 001 §4: a 402 returns the payment to its reported status with its confirmations.
        setPayment({
          ...current,
          status: answer.required.status,
          confirmations: answer.required.confirmations,
        });
        generationStarted.current.delete(current.paymentId);
      } catch (error) {
        // Spec 001 §8: 'Key generation failed' is logged; the status reverts to confirmed.
        logPurchaseError(PAYMENT_TEXT.keyGenerationFailed, error);
        setPayment({ ...current, status: 'confirmed' });
        setKeyGenerationFailed(true);
      }
    },
    [refresh],
  );

  // When the payment is confirmed, key generation is triggered once (spec 001 §4).
  useEffect(() => {
    if (!payment || payment.status !== 'confirmed') return;
    if (generationStarted.current.has(payment.paymentId)) return;
    generationStarted.current.add(payment.paymentId);
    void runKeyGeneration(payment);
  }, [payment, runKeyGeneration]);

  const createPayment = useCallback(async () => {
    if (!tier || !currency) return;
    setIsCreating(true);
    setPaymentError(null);
    setNotice(null);
    try {
      const created = await generatePayment(currency, tier.minAmountUsd);
      savePaymentRecord({
        paymentId: created.paymentId,
        address: created.address,
        amount: created.amount,
        currency: created.currency,
        createdAt: created.createdAt,
        expiresAt: created.expiresAt,
      });
      setPayment({
        paymentId: created.paymentId,
        status: 'pending',
        confirmations: 0,
        requiredConfirmations: created.requiredConfirmations,
        transactionHash: null,
        address: created.address,
        extraId: created.extraId,
        amount: created.amount,
        paidAmount: null,
        currency: created.currency,
        tier: created.tier,
        expiresAt: created.expiresAt,
        keyId: null,
        downloadUrl: null,
        keyErased: false,
        sandbox: created.sandbox,
      });
      setStep(3);
      navigate(`/get-key?payment=${created.paymentId}`, { replace: true });
    } catch (error) {
      // Spec 001 §8: 'Failed to generate payment' is logged; the reason is also shown here.
      logPurchaseError(PAYMENT_TEXT.failedToGenerate, error);
      setPaymentError(`${PAYMENT_TEXT.failedToGenerate}: ${messageOf(error)}`);
      if (isPurchasesUnavailable(error)) invalidatePurchaseAvailability(queryClient);
    } finally {
      setIsCreating(false);
    }
  }, [tier, currency, navigate, queryClient]);

  const download = useCallback(async () => {
    if (!payment?.downloadUrl) return;
    setIsDownloading(true);
    setDownloadError(null);
    try {
      const file = await downloadKeyFile(payment.downloadUrl);
      downloadTextFile(file.fileName, file.text);
      setDownloaded({ fileName: file.fileName });
      // The purchase is complete: nothing is left to recover.
      clearPaymentRecord();
      await refresh(payment.paymentId);
    } catch (error) {
      setDownloadError(messageOf(error));
    } finally {
      setIsDownloading(false);
    }
  }, [payment, refresh]);

  const sandboxSend = useCallback(
    async (amount: string) => {
      if (!payment) return;
      setIsSending(true);
      try {
        await sandboxPay(payment.paymentId, amount);
        await refresh(payment.paymentId);
      } catch (error) {
        setNotice(messageOf(error));
      } finally {
        setIsSending(false);
      }
    },
    [payment, refresh],
  );

  return {
    step,
    tier,
    currency,
    payment,
    paymentError,
    notice,
    isCreating,
    keyGenerationFailed,
    pollingStopped,
    isDownloading,
    downloaded,
    downloadError,
    isSending,
    chooseTier: (next) => {
      setTier(next);
      setStep(2);
    },
    chooseCurrency: (next) => {
      setCurrency(next);
      setPaymentError(null);
    },
    goToStep: (next) => {
      if (payment) return;
      setStep(next);
    },
    createPayment,
    retryKeyGeneration: () => {
      if (!payment) return;
      generationStarted.current.add(payment.paymentId);
      void runKeyGeneration(payment);
    },
    resumeMonitoring: () => {
      monitoringSince.current = Date.now();
      setPollingStopped(false);
      if (currentId) void refresh(currentId);
    },
    download,
    sandboxSend,
    startOver: () => {
      clearPaymentRecord();
      reset();
      setTier(null);
      setCurrency(null);
      setNotice(null);
      navigate('/get-key', { replace: true });
    },
  };
}
