/**
 * The page's verdict on the server it talks to, made once per page load and before anything is
 * sent (spec 000 §4 "Chat connection": failed certificate validation aborts the connection;
 * DESIGN.md "Server identity"). Every socket waits for it (`ChatSocket`'s `beforeOpen`) and so
 * does every API call (`setRequestGate`); a failed verdict blocks both until the user presses
 * RESET_CERTIFICATES (ServerTrustGate).
 */
import { toHex } from '../../../shared/crypto/bytes.js';
import type { CertificateInfo } from '../../../shared/protocol/http/privacy.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import { isCertificateOk, type CertificateStatus, type PinnedCertificate } from './pins.js';

export interface ServerTrustState {
  status: CertificateStatus;
  /** The fingerprint the server reported, once it answered. */
  fingerprint: string | null;
  /** The stored pins: none until the check has read them (its code loads with the check). */
  pins: PinnedCertificate[];
}

export interface ServerTrustDeps {
  now: () => number;
  location: { hostname: string; origin: string };
  storage: { read(): string | null; write(text: string): void; clear(): void };
  /** Asks `GET /api/certificate-info?challenge=…`; rejects on any failure. */
  fetchInfo: (challenge: string) => Promise<CertificateInfo>;
  /** A fresh challenge: 32 random bytes as hex. */
  newChallenge: () => string;
}

export class ServerTrust {
  #state: ServerTrustState;
  #verdict: Promise<CertificateStatus> | null = null;
  readonly #listeners = new Set<() => void>();

  constructor(private readonly deps: ServerTrustDeps) {
    this.#state = { status: 'checking', fingerprint: null, pins: [] };
  }

  getState = (): ServerTrustState => this.#state;

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** The verdict of this page load, checked once; a check that got no answer is tried again. */
  verify(): Promise<CertificateStatus> {
    this.#verdict ??= this.#check().then((status) => {
      if (status === 'unavailable') this.#verdict = null;
      return status;
    });
    return this.#verdict;
  }

  /** True once the server is trusted: what a socket waits for before it opens. */
  async isTrusted(): Promise<boolean> {
    return isCertificateOk(await this.verify());
  }

  /** RESET_CERTIFICATES: forgets every pin, then checks again (pinning the current answer). */
  async reset(): Promise<CertificateStatus> {
    this.deps.storage.clear();
    this.#verdict = null;
    this.#set({ pins: [] });
    return this.verify();
  }

  async #check(): Promise<CertificateStatus> {
    const { deps } = this;
    this.#set({ status: 'checking' });
    const challenge = deps.newChallenge();
    // The Ed25519 check and the pins' schema load here, in parallel with the request and the first
    // paint, not with the page.
    const pinning = import('./certificate-pinning.js');
    pinning.catch(() => undefined); // awaited below; a failed load fails the check there
    let info: CertificateInfo | null;
    try {
      info = await deps.fetchInfo(challenge);
    } catch {
      info = null;
    }
    const { evaluateCertificate, parsePins } = await pinning;
    const verdict = evaluateCertificate({
      origin: deps.location.origin,
      hostname: deps.location.hostname,
      info,
      challenge,
      pins: parsePins(deps.storage.read()),
      now: deps.now(),
    });
    if (verdict.pins !== this.#state.pins && verdict.status !== 'invalid') {
      deps.storage.write(JSON.stringify(verdict.pins));
    }
    this.#set({ status: verdict.status, fingerprint: verdict.fingerprint, pins: verdict.pins });
    return verdict.status;
  }

  #set(next: Partial<ServerTrustState>): void {
    this.#state = { ...this.#state, ...next };
    for (const listener of [...this.#listeners]) listener();
  }
}

const PINS_KEY = 'pinnedCertificates';

/** The browser's defaults: fetch, localStorage `pinnedCertificates`, window.location. */
export function browserServerTrustDeps(): ServerTrustDeps {
  return {
    now: Date.now,
    location: window.location,
    storage: {
      read: () => {
        try {
          return window.localStorage.getItem(PINS_KEY);
        } catch {
          return null;
        }
      },
      write: (text) => {
        try {
          window.localStorage.setItem(PINS_KEY, text);
        } catch {
          // Storage refused: the pin is not kept; the next visit pins again.
        }
      },
      clear: () => {
        try {
          window.localStorage.removeItem(PINS_KEY);
        } catch {
          // Nothing stored.
        }
      },
    },
    fetchInfo: async (challenge) => {
      // Not through apiRequest: this is the one call allowed while requests are blocked.
      const response = await fetch(`/api/certificate-info?challenge=${challenge}`, {
        headers: { accept: 'application/json' },
        cache: 'no-store',
      });
      if (!response.ok) throw new Error(`status ${response.status}`);
      // The schema (and zod) loads with this first call, not with the entry.
      const { CertificateInfoSchema } = await import('../../../shared/protocol/http/privacy.js');
      return CertificateInfoSchema.parse(await response.json());
    },
    newChallenge: () => toHex(globalThis.crypto.getRandomValues(new Uint8Array(32))),
  };
}

let pageTrust: ServerTrust | null = null;

/** The page's one ServerTrust. */
export function getServerTrust(): ServerTrust {
  pageTrust ??= new ServerTrust(browserServerTrustDeps());
  return pageTrust;
}

/** For ChatSocket's `beforeOpen`: waits for the page's verdict; false blocks the socket. */
export function waitForServerTrust(): Promise<boolean> {
  return getServerTrust().isTrusted();
}

/** For the API client's gate: null once the server is trusted, else the spec's text. */
export async function serverTrustRefusal(): Promise<string | null> {
  return (await getServerTrust().isTrusted()) ? null : TEXT.certificateValidationFailed;
}
