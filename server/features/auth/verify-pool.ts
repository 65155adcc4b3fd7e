/**
 * A small pool of worker threads for ML-DSA-65 verification. Jobs queue when every worker is
 * busy; a worker that dies is replaced and its job fails closed (invalid).
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

export interface SignatureVerifier {
  verifyMlDsa(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): Promise<boolean>;
  close(): Promise<void>;
}

interface Job {
  id: number;
  signature: Uint8Array;
  message: Uint8Array;
  publicKey: Uint8Array;
  resolve: (valid: boolean) => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
}

const WORKER_URL = new URL('./ml-dsa-verify-worker.mjs', import.meta.url);

export class VerifyPool implements SignatureVerifier {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(size = Math.max(1, Math.min(2, availableParallelism() - 1))) {
    for (let i = 0; i < size; i += 1) this.slots.push(this.spawn());
  }

  verifyMlDsa(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      this.queue.push({ id: this.nextId++, signature, message, publicKey, resolve });
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
      slot.worker.postMessage({
        id: job.id,
        signature: job.signature,
        message: job.message,
        publicKey: job.publicKey,
      });
    }
  }
}
