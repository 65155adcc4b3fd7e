/**
 * The purchase flow's state (spec 001 §2, §4, §8; issue 32): the three steps, the payment and its
 * status polling (every 10 s, stopped after 60 min), the key made in this browser and its public
 * part sent with a proof of possession, the key's registration triggered once when the payment
 * is confirmed, saving the browser's own key file, and recovery of a payment through `?payment=`,
 * the local record or the recovery code after a reload.
 *
 * A failed poll (network drop, 5xx, 429, the 503 of an emergency shutdown) never ends an order:
 * the page says the service is unreachable and asks again with backoff. Only the server's own
 * answer (expired, failed, not found) ends it.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { PAYMENT_POLL_INTERVAL_MS, PAYMENT_POLL_MAX_MS } from '../../../shared/constants.js';
import {
  keyFileName,
  serializeKeyFile,
  KeyUsernameSchema,
} from '../../../shared/crypto/key-file-schema.js';
import {
  PAYMENT_TEXT,
  PaymentIdSchema,
  type PaymentCurrency,
  type PaymentStatusResponse,
} from '../../../shared/protocol/http/payments.js';
import { HttpError } from '../../lib/http.js';
import { downloadTextFile } from '../../lib/download.js';
import {
  fetchPaymentStatus,
  generateKey,
  generatePayment,
  sandboxPay,
  submitPurchaseKey,
} from './purchase-api.js';
import { forgetPurchaseKey, readPurchaseKey, storePurchaseKey } from './purchase-key.js';
import { clearPaymentRecord, readPaymentRecord, savePaymentRecord } from './payment-record.js';
import type { Tier } from './tiers.js';
import { invalidatePurchaseAvailability } from './use-purchase-availability.js';

export type PurchaseStep = 1 | 2 | 3;

/** Statuses during which the page keeps asking the server. */
const MONITORED = new Set(['pending', 'confirming', 'confirmed', 'generating']);
/** Statuses during which the order may still receive its key's public part. */
const ACCEPTS_KEY = new Set(['pending', 'confirming', 'confirmed']);
/** Backoff after failed polls: 2 s, doubled each time, at most 30 s. */
const RETRY_FIRST_MS = 2_000;
const RETRY_MAX_MS = 30_000;

/** Where the key made in this browser stands. */
export type KeyPhase = 'idle' | 'making' | 'sending' | 'sent' | 'failed';

export interface Purchase {
  step: PurchaseStep;
  tier: Tier | null;
  currency: PaymentCurrency | null;
  username: string;
  usernameError: string | null;
  payment: PaymentStatusResponse | null;
  /** The failure of the last generate-payment, shown under the button. */
  paymentError: string | null;
  /** Why a recovered payment could not be shown (then the page is back at step 1). */
  notice: string | null;
  /** Set while the server cannot be reached: the order is kept and asked about again. */
  unreachable: string | null;
  isCreating: boolean;
  keyPhase: KeyPhase;
  keyError: string | null;
  /** True when this browser holds the order's key file (made here, not yet saved). */
  hasLocalKey: boolean;
  keyGenerationFailed: boolean;
  pollingStopped: boolean;
  /** The saved file: kept in this page only, so that it can be saved again before leaving. */
  downloaded: { fileName: string; text: string } | null;
  isSending: boolean;
  chooseTier(tier: Tier): void;
  chooseCurrency(currency: PaymentCurrency): void;
  chooseUsername(username: string): void;
  goToStep(step: 1 | 2): void;
  createPayment(): Promise<void>;
  retryKeyGeneration(): void;
  resumeMonitoring(): void;
  download(): void;
  downloadReceipt(): void;
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

/**
 * True when the server itself says the order does not exist (unknown or malformed id): only this
 * ends an order on a failed poll. Everything else (no answer, 5xx, 429, 503) is a passing outage.
 */
function isOrderGone(error: unknown): boolean {
  return error instanceof HttpError && (error.status === 404 || error.status === 400);
}

/** Logs a spec 001 §8 text with the HTTP status only: never a payment id, a key or a body. */
function logPurchaseError(text: string, error: unknown): void {
  const detail =
    error instanceof HttpError ? `HTTP ${error.status}` : error instanceof Error ? error.name : '';
  // eslint-disable-next-line no-console -- spec 001 §8: these failures are logged.
  console.error(`[purchase] ${text} (${detail})`);
}

/** The delay before the next poll after `failures` failed polls in a row. */
export function pollDelay(failures: number): number {
  if (failures === 0) return PAYMENT_POLL_INTERVAL_MS;
  return Math.min(RETRY_FIRST_MS * 2 ** (failures - 1), RETRY_MAX_MS);
}

/** The text shown while the service does not answer a poll. */
export function unreachableText(error: unknown, retryMs: number): string {
  const reason =
    error instanceof HttpError
      ? error.status === 429
        ? 'too many requests'
        : error.status === 503
          ? 'the service is unavailable'
          : `HTTP ${error.status}`
      : 'no connection';
  return `The service cannot be reached right now (${reason}). Your order is kept; asking again in ${Math.round(retryMs / 1000)} s.`;
}

export function usePurchase(): Purchase {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const search = useSearch();
  const [step, setStep] = useState<PurchaseStep>(1);
  const [tier, setTier] = useState<Tier | null>(null);
  const [currency, setCurrency] = useState<PaymentCurrency | null>(null);
  const [username, setUsername] = useState('');
  const [usernameError, setUsernameError] = useState<string | null>(null);
  const [payment, setPayment] = useState<PaymentStatusResponse | null>(null);
  const [paymentError, setPaymentError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [unreachable, setUnreachable] = useState<string | null>(null);
  const [failures, setFailures] = useState(0);
  const [polls, setPolls] = useState(0);
  const [isCreating, setIsCreating] = useState(false);
  const [keyPhase, setKeyPhase] = useState<KeyPhase>('idle');
  const [keyError, setKeyError] = useState<string | null>(null);
  const [keyGenerationFailed, setKeyGenerationFailed] = useState(false);
  const [pollingStopped, setPollingStopped] = useState(false);
  const [downloaded, setDownloaded] = useState<{ fileName: string; text: string } | null>(null);
  const [isSending, setIsSending] = useState(false);
  const monitoringSince = useRef(0);
  /** Payments whose key registration this tab has already started (spec 001 §4: once). */
  const generationStarted = useRef(new Set<string>());
  /** Payments whose key this tab is making or sending. */
  const keyStarted = useRef(new Set<string>());

  const paymentId = PaymentIdSchema.safeParse(new URLSearchParams(search).get('payment'));
  const currentId = paymentId.success ? paymentId.data : null;

  const reset = useCallback(() => {
    setStep(1);
    setPayment(null);
    setDownloaded(null);
    setKeyGenerationFailed(false);
    setPollingStopped(false);
    setUnreachable(null);
    setFailures(0);
    setKeyPhase('idle');
    setKeyError(null);
  }, []);

  /** Asks the server where the payment stands; only the server's own answer ends an order. */
  const refresh = useCallback(
    async (id: string) => {
      try {
        const next = await fetchPaymentStatus(id);
        setPayment(next);
        setStep(3);
        setUnreachable(null);
        setFailures(0);
        // Spec 001 §4: expired or failed clears the saved session (and the unpaid key).
        if (next.status === 'expired' || next.status === 'failed') {
          clearPaymentRecord();
          forgetPurchaseKey(id);
        }
      } catch (error) {
        if (isOrderGone(error)) {
          clearPaymentRecord();
          reset();
          setNotice(messageOf(error));
          navigate('/get-key', { replace: true });
          return;
        }
        // A server that stopped selling keys has not forgotten the payment: keep the record, and
        // let the page say that purchases are off.
        if (isPurchasesUnavailable(error)) invalidatePurchaseAvailability(queryClient);
        setFailures((count) => {
          setUnreachable(unreachableText(error, pollDelay(count + 1)));
          return count + 1;
        });
      } finally {
        setPolls((count) => count + 1);
      }
    },
    [navigate, reset, queryClient],
  );

  // Recovery after a reload: the query names the payment, or the local record does.
  useEffect(() => {
    if (currentId) {
      monitoringSince.current = Date.now();
      void refresh(currentId);
      return;
    }
    const record = readPaymentRecord();
    if (record) navigate(`/get-key?payment=${record.paymentId}`, { replace: true });
  }, [currentId, navigate, refresh]);

  // Polling every 10 s while the payment moves (with backoff while the server does not answer),
  // stopped after 60 minutes (spec 001 §9).
  const status = payment?.status ?? null;
  const isWaiting = status === null ? failures > 0 : MONITORED.has(status) || failures > 0;
  useEffect(() => {
    if (!currentId || !isWaiting || pollingStopped) return;
    const timer = window.setTimeout(() => {
      if (Date.now() - monitoringSince.current >= PAYMENT_POLL_MAX_MS) {
        setPollingStopped(true);
        return;
      }
      void refresh(currentId);
    }, pollDelay(failures));
    return () => window.clearTimeout(timer);
  }, [currentId, isWaiting, pollingStopped, refresh, failures, polls]);

  // The browser's own word on its connection is news the next poll would bring up to 30 s late:
  // going offline says so at once (the order is kept), coming back asks where the payment stands.
  useEffect(() => {
    if (!currentId || !isWaiting || pollingStopped) return;
    const askNow = () => void refresh(currentId);
    window.addEventListener('online', askNow);
    window.addEventListener('offline', askNow);
    return () => {
      window.removeEventListener('online', askNow);
      window.removeEventListener('offline', askNow);
    };
  }, [currentId, isWaiting, pollingStopped, refresh]);

  // The order's key: made in this browser (or taken from its storage) and its public part sent
  // with the proof, while the order has none. A browser that did not make the key of an order
  // whose key was already sent cannot save that key (it was never anywhere else).
  useEffect(() => {
    if (!payment || payment.keySubmitted || !ACCEPTS_KEY.has(payment.status)) return;
    const { paymentId: id, keyChallenge, username: name } = payment;
    if (keyChallenge === null || name === null || keyStarted.current.has(id)) return;
    keyStarted.current.add(id);
    void (async () => {
      try {
        // The key generator (ML-DSA-65, ECDSA, DM keys) loads only when a key is to be made, so
        // the page's first load stays within its budget (client/bundle-budget.json).
        const { makePurchaseKey, purchaseKeyProof } =
          await import('../../../shared/crypto/purchase-key.js');
        let keyFile = readPurchaseKey(id);
        if (!keyFile) {
          setKeyPhase('making');
          keyFile = await makePurchaseKey(name, payment.tier);
          storePurchaseKey(id, keyFile);
        }
        setKeyPhase('sending');
        await submitPurchaseKey(await purchaseKeyProof(id, keyFile, keyChallenge));
        setKeyPhase('sent');
        setKeyError(null);
        await refresh(id);
      } catch (error) {
        setKeyPhase('failed');
        setKeyError(messageOf(error));
        // A passing outage is retried with the next poll; a refusal is shown and kept.
        if (!(error instanceof HttpError) || error.status >= 500 || error.status === 429) {
          keyStarted.current.delete(id);
        }
      }
    })();
  }, [payment, refresh]);

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

  // When the payment is confirmed and its key was sent, registration is triggered once.
  useEffect(() => {
    if (!payment || payment.status !== 'confirmed' || !payment.keySubmitted) return;
    if (generationStarted.current.has(payment.paymentId)) return;
    generationStarted.current.add(payment.paymentId);
    void runKeyGeneration(payment);
  }, [payment, runKeyGeneration]);

  const createPayment = useCallback(async () => {
    if (!tier || !currency) return;
    const name = KeyUsernameSchema.safeParse(username.trim());
    if (!name.success) {
      setUsernameError(PAYMENT_TEXT.invalidUsername);
      return;
    }
    setIsCreating(true);
    setPaymentError(null);
    setNotice(null);
    try {
      const created = await generatePayment(currency, tier.minAmountUsd, name.data);
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
        username: created.username,
        keyChallenge: created.keyChallenge,
        keySubmitted: false,
        receipt: null,
        sandbox: created.sandbox,
        processorStatus: null,
      });
      setStep(3);
      navigate(`/get-key?payment=${created.paymentId}`, { replace: true });
    } catch (error) {
      // Spec 001 §8: 'Failed to generate payment' is logged; the reason is also shown here.
      logPurchaseError(PAYMENT_TEXT.failedToGenerate, error);
      if (error instanceof HttpError && error.serverError === PAYMENT_TEXT.usernameTaken) {
        setUsernameError(PAYMENT_TEXT.usernameTaken);
      }
      setPaymentError(`${PAYMENT_TEXT.failedToGenerate}: ${messageOf(error)}`);
      if (isPurchasesUnavailable(error)) invalidatePurchaseAvailability(queryClient);
    } finally {
      setIsCreating(false);
    }
  }, [tier, currency, username, navigate, queryClient]);

  const localKey = payment ? readPurchaseKey(payment.paymentId) : null;

  const download = useCallback(() => {
    if (downloaded) {
      downloadTextFile(downloaded.fileName, downloaded.text);
      return;
    }
    if (!payment || payment.status !== 'ready') return;
    const keyFile = readPurchaseKey(payment.paymentId);
    if (!keyFile) return;
    const fileName = keyFileName(keyFile.username);
    const text = serializeKeyFile(keyFile);
    downloadTextFile(fileName, text);
    setDownloaded({ fileName, text });
    // The purchase is complete: the key leaves this browser's storage with the saved file.
    forgetPurchaseKey(payment.paymentId);
    clearPaymentRecord();
  }, [payment, downloaded]);

  const downloadReceipt = useCallback(() => {
    if (!payment?.receipt) return;
    downloadTextFile(
      `${keyFileName(payment.receipt.username).replace(/\.sck$/, '')}-receipt.json`,
      `${JSON.stringify(payment.receipt, null, 2)}\n`,
      'application/json',
    );
  }, [payment]);

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
    username,
    usernameError,
    payment,
    paymentError,
    notice,
    unreachable,
    isCreating,
    keyPhase,
    keyError,
    hasLocalKey: localKey !== null,
    keyGenerationFailed,
    pollingStopped,
    downloaded,
    isSending,
    chooseTier: (next) => {
      setTier(next);
      setStep(2);
    },
    chooseCurrency: (next) => {
      setCurrency(next);
      setPaymentError(null);
    },
    chooseUsername: (next) => {
      setUsername(next);
      setUsernameError(null);
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
    downloadReceipt,
    sandboxSend,
    startOver: () => {
      if (payment && payment.status !== 'ready') forgetPurchaseKey(payment.paymentId);
      clearPaymentRecord();
      reset();
      setTier(null);
      setCurrency(null);
      setNotice(null);
      navigate('/get-key', { replace: true });
    },
  };
}
