/**
 * A small pool of worker threads that verify login signatures (ML-DSA-65 and ECDSA P-256), so the
 * event loop only hands bytes over. Jobs queue when every worker is busy; a worker that dies is
 * replaced and its job fails closed (invalid). How many may wait is bounded in front of the pool,
 * by LoginAdmission (login-admission.ts).
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/** Both signatures of a login over the same message, with the keys on record. */
export interface LoginSignatures {
  message: Uint8Array;
  mlDsaSignature: Uint8Array;
  mlDsaPublicKey: Uint8Array;
  ecdsaSignature: Uint8Array;
  ecdsaPublicKey: Uint8Array;
}

export interface SignatureVerifier {
  /** True only when both signatures are valid. */
  verifyLogin(signatures: LoginSignatures): Promise<boolean>;
  close(): Promise<void>;
}

interface Job extends LoginSignatures {
  id: number;
  resolve: (valid: boolean) => void;
}

interface WorkerMessage {
  type?: 'ready';
  /** One answer per job of the batch handed over, in its order. */
  results?: { id?: number; valid?: boolean }[];
  implementation?: string;
  fallbackReason?: string | null;
}

interface Slot {
  worker: Worker;
  /** The batch handed over and not yet answered; empty when the worker is idle. */
  jobs: Job[];
  /** performance.now() when the batch was handed over. */
  startedAt: number;
  /** The batch started after the worker had loaded: its time is verifications'. */
  timed: boolean;
  ready: boolean;
}

/**
 * Most jobs handed to a worker in one message. A hand-over costs both threads a message and a
 * wake-up whatever it carries, about as much as a verification on one CPU (docs/benchmarks.md);
 * under a burst the jobs waiting go over together, and each batch's answers come back together,
 * so its first login waits for the others: eight keep that under 3 ms at native speed.
 */
export const MAX_VERIFY_BATCH = 8;

/** What a worker reports once it has loaded its ML-DSA-65 implementation. */
export interface VerifierReady {
  /** `liboqs-wasm` (the fast one) or `noble-js` (the fallback). */
  implementation: string;
  /** Why the fast implementation is not used; null when it is. */
  fallbackReason: string | null;
}

export interface VerifyPoolOptions {
  /** Worker threads at most; default one per core beyond the first, one or two. */
  size?: number;
  /** Workers left without a job this long are stopped. */
  idleMs?: number;
  /** Told which ML-DSA-65 implementation the first worker loaded (once per pool). */
  onReady?: (ready: VerifierReady) => void;
  /** The worker's script; tests give a misbehaving one. */
  workerUrl?: URL;
}

const WORKER_URL = new URL('./login-verify-worker.mjs', import.meta.url);

/** Weight of the newest job in the running mean of job times. */
const JOB_TIME_WEIGHT = 0.1;

/** Workers left without a job this long are stopped, giving their memory back. */
export const VERIFY_WORKER_IDLE_MS = 5 * 60_000;

export class VerifyPool implements SignatureVerifier {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private readyReported = false;
  private meanJobMs = 1;
  /** Worker threads at most. */
  readonly size: number;
  private readonly idleMs: number;
  private readonly onReady: (ready: VerifierReady) => void;
  private readonly workerUrl: URL;

  /**
   * Workers start with the first login, not with the server: each holds its own V8 heap and
   * module graph (tens of MB), which an idle self-hosted server should not pay for.
   */
  constructor(options: VerifyPoolOptions = {}) {
    this.size = Math.max(1, options.size ?? Math.max(1, Math.min(2, availableParallelism() - 1)));
    this.idleMs = options.idleMs ?? VERIFY_WORKER_IDLE_MS;
    this.onReady = options.onReady ?? (() => undefined);
    this.workerUrl = options.workerUrl ?? WORKER_URL;
  }

  /** Workers running now. */
  get workerCount(): number {
    return this.slots.length;
  }

  /** Jobs waiting or running. */
  get pending(): number {
    let running = 0;
    for (const slot of this.slots) running += slot.jobs.length;
    return this.queue.length + running;
  }

  /** Running mean of the time one job takes in a worker, in milliseconds. */
  get jobMs(): number {
    return this.meanJobMs;
  }

  verifyLogin(signatures: LoginSignatures): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      this.queue.push({ ...signatures, id: this.nextId++, resolve });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.clearIdleTimer();
    for (const job of this.queue.splice(0)) job.resolve(false);
    await Promise.all(this.slots.splice(0).map((slot) => slot.worker.terminate()));
  }

  private spawn(): Slot {
    const worker = new Worker(this.workerUrl);
    worker.unref();
    const slot: Slot = { worker, jobs: [], startedAt: 0, timed: false, ready: false };
    worker.on('message', (result: WorkerMessage) => {
      if (result.type === 'ready') {
        slot.ready = true;
        if (!this.readyReported) {
          this.readyReported = true;
          this.onReady({
            implementation: String(result.implementation),
            fallbackReason: result.fallbackReason ?? null,
          });
        }
        return;
      }
      const jobs = slot.jobs;
      slot.jobs = [];
      if (jobs.length > 0 && slot.timed) {
        const perJob = (performance.now() - slot.startedAt) / jobs.length;
        this.meanJobMs += JOB_TIME_WEIGHT * (perJob - this.meanJobMs);
      }
      const results = Array.isArray(result.results) ? result.results : [];
      jobs.forEach((job, index) => {
        // An answer missing, or for another job than the one handed over there, fails closed.
        const answer = results[index];
        job.resolve(answer?.id === job.id && answer.valid === true);
      });
      this.pump();
    });
    worker.on('error', () => this.replace(slot));
    worker.on('exit', () => {
      if (!this.closed && this.slots.includes(slot)) this.replace(slot);
    });
    return slot;
  }

  private replace(slot: Slot): void {
    for (const job of slot.jobs) job.resolve(false);
    slot.jobs = [];
    const index = this.slots.indexOf(slot);
    if (index < 0 || this.closed) return;
    void slot.worker.terminate();
    this.slots[index] = this.spawn();
    this.pump();
  }

  private pump(): void {
    if (this.closed) return;
    while (this.slots.length < this.size && this.queue.length > this.idleSlots()) {
      this.slots.push(this.spawn());
    }
    for (const slot of this.slots) {
      if (slot.jobs.length > 0 || this.queue.length === 0) continue;
      // The waiting jobs shared out over the idle workers, at most a batch each.
      const share = Math.ceil(this.queue.length / Math.max(1, this.idleSlots()));
      const jobs = this.queue.splice(0, Math.min(MAX_VERIFY_BATCH, share));
      slot.jobs = jobs;
      slot.startedAt = performance.now();
      slot.timed = slot.ready;
      slot.worker.postMessage({ jobs: jobs.map(({ resolve: _resolve, ...job }) => job) });
    }
    this.scheduleIdleStop();
  }

  private idleSlots(): number {
    return this.slots.filter((slot) => slot.jobs.length === 0).length;
  }

  /** Once every worker is idle and the queue empty, stop them all after `idleMs`. */
  private scheduleIdleStop(): void {
    this.clearIdleTimer();
    if (this.pending > 0 || this.slots.length === 0) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.pending > 0) return;
      for (const slot of this.slots.splice(0)) void slot.worker.terminate();
    }, this.idleMs);
    this.idleTimer.unref();
  }

  private clearIdleTimer(): void {
    if (this.idleTimer === null) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }
}
