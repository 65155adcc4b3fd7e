/**
 * tor's published exit list (DESIGN.md "Connection privacy"; docs/decisions.md "Tor check"):
 * the addresses Tor traffic leaves the network from, the same list check.torproject.org decides
 * by. Fetched by the server from TOR_EXIT_LIST_URL at start, then again once an hour (a failed
 * fetch is tried again after five minutes and keeps the list it had). A check of an address kicks
 * the refresh when it is due, so a long-idle process does not answer from an old list for long.
 *
 * The list comes in two forms, both read here: the bulk list (one address a line) and the
 * `exit-addresses` file (`ExitAddress 1.2.3.4 2026-01-01 00:00:00` lines among others). Anything
 * else on a line is ignored; the answer is bounded in size and in entries.
 */
import { isIP } from 'node:net';
import { readBounded } from './lookup.js';

/** How often the list is fetched again (issue 37: hourly). */
export const TOR_EXIT_LIST_REFRESH_MS = 60 * 60_000;
/** After a failed fetch, the next try. */
export const TOR_EXIT_LIST_RETRY_MS = 5 * 60_000;
/** The Tor check's time-out (spec 000 §7: 5 to 8 s). */
export const TOR_EXIT_LIST_TIMEOUT_MS = 8_000;
/** The largest list read (the real one is about 30 kB; the exit-addresses form about 1 MB). */
const MAX_LIST_BYTES = 8 * 1024 * 1024;
/** The most addresses kept. */
const MAX_ENTRIES = 200_000;

/** The exit addresses in `text`, in either published form. */
export function parseTorExitList(text: string): Set<string> {
  const addresses = new Set<string>();
  for (const raw of text.split('\n')) {
    const words = raw.trim().split(/\s+/);
    const candidate = words[0] === 'ExitAddress' ? words[1] : words.length === 1 ? words[0] : null;
    if (candidate && isIP(candidate) !== 0) addresses.add(candidate.toLowerCase());
    if (addresses.size >= MAX_ENTRIES) break;
  }
  return addresses;
}

export interface TorExitListDeps {
  url: string;
  now: () => number;
  timeoutMs?: number;
  /** Told about a failed fetch (never the list's content). */
  onFailure?: (reason: string) => void;
}

export class TorExitList {
  #addresses: Set<string> | null = null;
  #nextFetchAt = 0;
  #inFlight: Promise<void> | null = null;
  #timer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly deps: TorExitListDeps) {}

  /** Fetches now, then keeps the list fresh until stop(). */
  start(): void {
    void this.refreshIfDue();
    this.#timer ??= setInterval(() => void this.refreshIfDue(), TOR_EXIT_LIST_RETRY_MS);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** True once a list has been read (an empty list counts). */
  get isLoaded(): boolean {
    return this.#addresses !== null;
  }

  /** Whether `ip` is a Tor exit; null while no list has been read. Kicks a due refresh. */
  has(ip: string): boolean | null {
    void this.refreshIfDue();
    return this.#addresses ? this.#addresses.has(ip.toLowerCase()) : null;
  }

  /** Fetches the list when it is due; one fetch at a time; never rejects. */
  refreshIfDue(): Promise<void> {
    if (this.#inFlight) return this.#inFlight;
    if (this.deps.now() < this.#nextFetchAt) return Promise.resolve();
    this.#inFlight = this.#fetch()
      .then(
        (addresses) => {
          this.#addresses = addresses;
          this.#nextFetchAt = this.deps.now() + TOR_EXIT_LIST_REFRESH_MS;
        },
        (error: unknown) => {
          this.#nextFetchAt = this.deps.now() + TOR_EXIT_LIST_RETRY_MS;
          this.deps.onFailure?.(error instanceof Error ? error.message : 'failed');
        },
      )
      .finally(() => {
        this.#inFlight = null;
      });
    return this.#inFlight;
  }

  async #fetch(): Promise<Set<string>> {
    let response: Response;
    try {
      response = await fetch(this.deps.url, {
        redirect: 'error',
        signal: AbortSignal.timeout(this.deps.timeoutMs ?? TOR_EXIT_LIST_TIMEOUT_MS),
      });
    } catch (error) {
      throw new Error(
        error instanceof Error && error.name === 'TimeoutError' ? 'timeout' : 'network',
      );
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`status ${response.status}`);
    }
    return parseTorExitList(await readBounded(response, MAX_LIST_BYTES));
  }
}
