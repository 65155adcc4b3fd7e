/**
 * The crypto process log (spec 000 §2): what the browser's encryption did, in words a user can
 * follow: keys generated, bundles announced and verified, sender keys handed over per member,
 * rotations, failures. It is shown on screen only.
 *
 * Never put key material, message text or ciphertext in an entry: callers pass callsigns, key ids
 * (public identifiers) and the spec's error texts. Nothing here writes to the console.
 */
import { STATUS_MESSAGE_CLEAR_MS } from '../../../shared/constants.js';
import { CRYPTO_LOG_LIMIT } from './e2ee-constants.js';

export type CryptoLogLevel = 'info' | 'success' | 'warning' | 'error';

export interface CryptoLogEntry {
  id: number;
  /** This browser's clock, ms. */
  at: number;
  level: CryptoLogLevel;
  text: string;
}

/** An observable list of the newest {@link CRYPTO_LOG_LIMIT} entries. */
export class CryptoLog {
  #entries: readonly CryptoLogEntry[] = [];
  #nextId = 1;
  readonly #listeners = new Set<() => void>();

  constructor(private readonly now: () => number = Date.now) {}

  add(level: CryptoLogLevel, text: string): void {
    const entry = { id: this.#nextId++, at: this.now(), level, text };
    const entries = [...this.#entries, entry];
    this.#entries = entries.length > CRYPTO_LOG_LIMIT ? entries.slice(-CRYPTO_LOG_LIMIT) : entries;
    for (const listener of [...this.#listeners]) listener();
  }

  info(text: string): void {
    this.add('info', text);
  }

  success(text: string): void {
    this.add('success', text);
  }

  warning(text: string): void {
    this.add('warning', text);
  }

  error(text: string): void {
    this.add('error', text);
  }

  /** The entries, oldest first; the same array until something is added (for React). */
  getEntries = (): readonly CryptoLogEntry[] => this.#entries;

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };
}

/**
 * The status message the status bar shows: the newest entry, until STATUS_MESSAGE_CLEAR_MS after
 * it was written (spec 000 §9 "Status messages are cleared after 10 s"); null once cleared.
 */
export function currentStatusMessage(
  entries: readonly CryptoLogEntry[],
  now: number,
): CryptoLogEntry | null {
  const newest = entries.at(-1);
  if (newest === undefined || now - newest.at >= STATUS_MESSAGE_CLEAR_MS) return null;
  return newest;
}
