/**
 * The chat page's cipher while the room's end-to-end engine (room-engine.ts: key manager, message
 * cipher, and with them all of the room's cryptography) is still being fetched (issue 22,
 * target 5: the room paints before its crypto has loaded). The page holds this facade from its
 * first render; `load()` starts `import('./room-engine.js')` once the room has rendered.
 *
 * Until the engine is there:
 * - a send waits, shown as pending like a send waiting for the room keys, and goes through the
 *   engine's cipher once it has loaded (which waits for the keys in turn): nothing leaves in
 *   clear and nothing is downgraded meanwhile;
 * - what the socket delivers for the engine (key frames, membership changes, reads of relayed
 *   messages) is queued and handed over in arrival order as soon as it loads;
 * - the status reads "loading" (`loadState`), which the security bar and panels show.
 *
 * If the engine cannot be loaded, the room has no encryption: every waiting and later send fails
 * with CipherUnavailableError (the chat says the message was not sent; it never falls back to
 * plaintext), encrypted messages show their `[ENCRYPTED: type]` marker, and the crypto log says
 * so.
 */
import type { Message } from '../../../shared/protocol/ws/chat.js';
import type { MessagePayload } from '../../../shared/protocol/message-payload.js';
import {
  PlaintextCipher,
  SendCancelledError,
  type DecryptedMessage,
  type EncryptedOutgoing,
  type MessageCipher,
  type SendControl,
} from '../../lib/message-cipher.js';
import { CryptoLog } from './crypto-log.js';
import { describeError, type E2eeStatus } from './e2ee-status.js';
import type { RoomEngine } from './room-engine.js';

/** idle: not asked for yet; loading: being fetched; ready: in use; failed: could not be loaded. */
export type CipherLoadState = 'idle' | 'loading' | 'ready' | 'failed';

/** Fetches the engine module; the browser's is the dynamic import of room-engine.ts. */
export type RoomEngineLoader = () => Promise<{ createRoomEngine: (log: CryptoLog) => RoomEngine }>;

/** Thrown by a send when the encryption code could not be loaded: nothing was sent. */
export class CipherUnavailableError extends Error {
  constructor() {
    super('The encryption code could not be loaded');
    this.name = 'CipherUnavailableError';
  }
}

/** What the room's encryption looks like before the engine is there: nothing made yet. */
export const NOT_LOADED_STATUS: E2eeStatus = Object.freeze({
  phase: 'initializing',
  isReadyToSend: false,
  hasKeyAgreementFailed: false,
  roomId: null,
  nodeId: null,
  epoch: null,
  signingKeyCreatedAt: null,
  identityKeyId: null,
  zkFingerprint: null,
  isZkInRotation: false,
  hasServerEntropy: false,
  members: [],
  unverifiedReaders: [],
});

/** One piece of work waiting for the engine: run once it loads, or told it never will. */
interface Waiting {
  run: (engine: RoomEngine) => void;
  fail: () => void;
}

export class LazyRoomCipher implements MessageCipher {
  readonly isEndToEnd = true;
  /** The page's crypto log: written before the engine loads, and by the engine after. */
  readonly log: CryptoLog;
  readonly #loader: RoomEngineLoader;
  readonly #plaintext = new PlaintextCipher();
  readonly #listeners = new Set<() => void>();
  #waiting: Waiting[] = [];
  #engine: RoomEngine | null = null;
  #state: CipherLoadState = 'idle';
  #loading: Promise<void> | null = null;

  constructor(
    loader: RoomEngineLoader = () => import('./room-engine.js'),
    log: CryptoLog = new CryptoLog(),
  ) {
    this.#loader = loader;
    this.log = log;
  }

  /** The engine once it has loaded, else null. */
  get engine(): RoomEngine | null {
    return this.#engine;
  }

  getLoadState = (): CipherLoadState => this.#state;

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** The key manager's status, or NOT_LOADED_STATUS before it exists (for useSyncExternalStore). */
  getStatus = (): E2eeStatus => this.#engine?.manager.getStatus() ?? NOT_LOADED_STATUS;

  /** Starts loading the engine (once); resolves when it is in use or has failed to load. */
  load(): Promise<void> {
    this.#loading ??= this.#load();
    return this.#loading;
  }

  async #load(): Promise<void> {
    this.#setState('loading');
    let engine: RoomEngine;
    try {
      const { createRoomEngine } = await this.#loader();
      engine = createRoomEngine(this.log);
    } catch (error) {
      this.log.error(`Encryption code not loaded (${describeError(error)}): nothing will be sent`);
      const waiting = this.#drain();
      this.#setState('failed');
      for (const item of waiting) item.fail();
      return;
    }
    this.#engine = engine;
    // The manager's own changes reach the page's subscribers too.
    engine.manager.subscribe(() => this.#emit());
    // In arrival order, before anything that comes after the engine is there.
    for (const item of this.#drain()) item.run(engine);
    this.#setState('ready');
  }

  /**
   * Runs `task` with the engine: at once when it is there, else once it has loaded, after
   * everything queued before it. Dropped if the engine cannot be loaded.
   */
  withEngine(task: (engine: RoomEngine) => void): void {
    if (this.#engine) task(this.#engine);
    else if (this.#state !== 'failed') this.#waiting.push({ run: task, fail: () => undefined });
  }

  canEncryptNow(): boolean {
    return this.#engine?.cipher.canEncryptNow() ?? false;
  }

  async encrypt(payload: MessagePayload, control: SendControl = {}): Promise<EncryptedOutgoing> {
    const engine = this.#engine ?? (await this.#engineFor(control.signal));
    return engine.cipher.encrypt(payload, control);
  }

  /** Waits for the engine; a cancel ends the wait, a failed load ends it with an error. */
  #engineFor(signal: AbortSignal | undefined): Promise<RoomEngine> {
    if (signal?.aborted) return Promise.reject(new SendCancelledError());
    if (this.#state === 'failed') return Promise.reject(new CipherUnavailableError());
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(new SendCancelledError());
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push({
        run: (engine) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(engine);
        },
        fail: () => {
          signal?.removeEventListener('abort', onAbort);
          reject(new CipherUnavailableError());
        },
      });
    });
  }

  decrypt(message: Message): Promise<DecryptedMessage> {
    if (this.#engine) return this.#engine.cipher.decrypt(message);
    // Without the engine a message can only be shown as it came: PLAINTEXT as text (unsigned),
    // anything else as its [ENCRYPTED: type] marker.
    if (this.#state === 'failed') return this.#plaintext.decrypt(message);
    return new Promise((resolve) => {
      this.#waiting.push({
        run: (engine) => resolve(engine.cipher.decrypt(message)),
        fail: () => resolve(this.#plaintext.decrypt(message)),
      });
    });
  }

  #drain(): Waiting[] {
    const waiting = this.#waiting;
    this.#waiting = [];
    return waiting;
  }

  #setState(state: CipherLoadState): void {
    this.#state = state;
    this.#emit();
  }

  #emit(): void {
    for (const listener of [...this.#listeners]) listener();
  }
}
