/**
 * What RoomKeyManager is built on: the types it is configured with, and an observable that runs
 * its tasks one at a time (frames are handled in arrival order) and lets callers wait for a state.
 */
import { type KeyBundle } from '../../../shared/protocol/ws/e2ee.js';
import { type CryptoLog } from './crypto-log.js';
import { describeError } from './e2ee-status.js';
import { type EntropyPool } from './entropy-pool.js';
import { type IdentityPinStore } from './identity-trust.js';
import { type SenderKeyWireEnvelope } from './sender-key-envelope.js';
import { type RoomZkKey } from './zk-key.js';

/** How frames leave: the chat socket, or an in-memory relay in tests. */
export interface KeyTransport {
  announce(bundle: KeyBundle): boolean;
  sendSenderKey(targetNodeId: string, envelope: SenderKeyWireEnvelope): boolean;
}

export interface RoomKeyManagerDeps {
  now: () => number;
  log: CryptoLog;
  pins: IdentityPinStore;
  /** Server entropy to mix in; absent or failing: local randomness only. */
  fetchServerEntropy?: () => Promise<Uint8Array>;
  entropy?: EntropyPool;
}

/** The room this browser has joined, as the key agreement needs it. */
export interface RoomJoin {
  /** The room's id as messages carry it. */
  roomId: string;
  /** Its 64-hex secure id: bound into every AAD, wrap and signature. */
  secureId: string;
  /** This connection's node id (from room_joined). */
  nodeId: string;
  /** The access code typed in this tab, if any: ZK-AES-256 only with it, and only when locked. */
  accessCode: string | null;
  isLocked: boolean;
}

/** The joined room with what was derived for it. */
export interface JoinedRoom extends RoomJoin {
  zk: RoomZkKey | null;
  joinedAt: number;
}

/** Listeners, a serial task queue and `waitFor`. */
export class SerialObservable {
  #queue: Promise<void> = Promise.resolve();
  readonly #listeners = new Set<() => void>();

  constructor(protected readonly log: CryptoLog) {}

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** Resolves once every task queued so far has run (tests and shutdown). */
  settled(): Promise<void> {
    return this.#queue;
  }

  /** Resolves true as soon as `predicate` holds, false if it still does not after `timeoutMs`. */
  waitFor(predicate: () => boolean, timeoutMs: number): Promise<boolean> {
    if (predicate()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const finish = (value: boolean) => {
        clearTimeout(timer);
        this.#listeners.delete(check);
        resolve(value);
      };
      const check = () => {
        if (predicate()) finish(true);
      };
      const timer = setTimeout(() => finish(predicate()), timeoutMs);
      this.#listeners.add(check);
    });
  }

  /** Tells every listener that something changed. */
  protected notify(): void {
    for (const listener of [...this.#listeners]) listener();
  }

  /** Runs `task` after every task queued before it; a failure is logged, never thrown. */
  protected enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.#queue.then(task).catch((error: unknown) => {
      this.log.error(`Key agreement step failed: ${describeError(error)}`);
    });
    this.#queue = run;
    return run;
  }
}
