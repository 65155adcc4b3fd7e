/**
 * A small pool of worker threads that verify login signatures (ML-DSA-65 and ECDSA P-256), so the
 * event loop only hands bytes over. Jobs queue when every worker is busy; a worker that dies is
 * replaced and its job fails closed (invalid).
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

interface Slot {
  worker: Worker;
  job: Job | null;
}

const WORKER_URL = new URL('./login-verify-worker.mjs', import.meta.url);

export class VerifyPool implements SignatureVerifier {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(size = Math.max(1, Math.min(2, availableParallelism() - 1))) {
    for (let i = 0; i < size; i += 1) this.slots.push(this.spawn());
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
    for (const job of this.queue.splice(0)) job.resolve(false);
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_URL);
    worker.unref();
    const slot: Slot = { worker, job: null };
    worker.on('message', (result: { id: number; valid: boolean }) => {
      const job = slot.job;
      slot.job = null;
      if (job && job.id === result.id) job.resolve(result.valid === true);
      this.pump();
    });
    worker.on('error', () => this.replace(slot));
    worker.on('exit', () => {
      if (!this.closed) this.replace(slot);
    });
    return slot;
  }

  private replace(slot: Slot): void {
    slot.job?.resolve(false);
    slot.job = null;
    const index = this.slots.indexOf(slot);
    if (index < 0 || this.closed) return;
    void slot.worker.terminate();
    this.slots[index] = this.spawn();
    this.pump();
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.job || this.queue.length === 0) continue;
      const job = this.queue.shift()!;
      slot.job = job;
      const { resolve: _resolve, ...message } = job;
      slot.worker.postMessage(message);
    }
  }
}
