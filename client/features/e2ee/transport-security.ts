/**
 * The page's link to the relay, as the security status bar reports it: the certificate pin
 * (certificate-pinning.ts) and the forward-secrecy key of the last PFS exchange (pfs-exchange.ts),
 * redone every PFS_KEY_ROTATION_MS. Both are written to the crypto log.
 */
import { TEXT } from '../../../shared/protocol/errors.js';
import {
  CertificateInfoSchema,
  type CertificateInfo,
} from '../../../shared/protocol/http/security.js';
import {
  evaluateCertificate,
  parsePins,
  type CertificateStatus,
  type PinnedCertificate,
} from './certificate-pinning.js';
import { type CryptoLog } from './crypto-log.js';
import { describeError } from './e2ee-status.js';
import { exchangePfsKey, type PfsKey } from './pfs-exchange.js';

export interface TransportSecurityState {
  certificate: CertificateStatus;
  /** The fingerprint the server reported, when it has a certificate. */
  certificateFingerprint: string | null;
  pinnedCertificates: PinnedCertificate[];
  pfs: { status: 'pending' | 'active' | 'failed'; key: PfsKey | null; exchangedAt: number | null };
}

export interface TransportSecurityDeps {
  log: CryptoLog;
  now: () => number;
  location: { hostname: string; origin: string };
  storage: { read(): string | null; write(text: string): void; clear(): void };
  fetchCertificateInfo: () => Promise<CertificateInfo>;
  exchangePfs: () => Promise<PfsKey>;
}

/** The browser's defaults: fetch, localStorage `pinnedCertificates`, window.location. */
export function browserTransportDeps(log: CryptoLog): TransportSecurityDeps {
  const key = 'pinnedCertificates';
  return {
    log,
    now: Date.now,
    location: window.location,
    storage: {
      read: () => {
        try {
          return window.localStorage.getItem(key);
        } catch {
          return null;
        }
      },
      write: (text) => {
        try {
          window.localStorage.setItem(key, text);
        } catch {
          // Storage refused: the pin is not kept; the next visit pins again.
        }
      },
      clear: () => {
        try {
          window.localStorage.removeItem(key);
        } catch {
          // Nothing stored.
        }
      },
    },
    fetchCertificateInfo: async () => {
      const response = await fetch('/api/certificate-info', {
        headers: { accept: 'application/json' },
      });
      if (!response.ok) throw new Error(`status ${response.status}`);
      return CertificateInfoSchema.parse(await response.json());
    },
    exchangePfs: () => exchangePfsKey(),
  };
}

export class TransportSecurity {
  #state: TransportSecurityState;
  readonly #listeners = new Set<() => void>();

  constructor(private readonly deps: TransportSecurityDeps) {
    this.#state = {
      certificate: 'checking',
      certificateFingerprint: null,
      pinnedCertificates: parsePins(deps.storage.read()),
      pfs: { status: 'pending', key: null, exchangedAt: null },
    };
  }

  getState = (): TransportSecurityState => this.#state;

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  #set(next: Partial<TransportSecurityState>): void {
    this.#state = { ...this.#state, ...next };
    for (const listener of [...this.#listeners]) listener();
  }

  /** Asks for the fingerprint and compares it with the pin of this origin. */
  async checkCertificate(): Promise<CertificateStatus> {
    const { deps } = this;
    this.#set({ certificate: 'checking' });
    let info: CertificateInfo | null = null;
    try {
      info = await deps.fetchCertificateInfo();
    } catch {
      info = null;
    }
    const verdict = evaluateCertificate({
      origin: deps.location.origin,
      hostname: deps.location.hostname,
      info,
      pins: parsePins(deps.storage.read()),
      now: deps.now(),
    });
    if (verdict.status === 'pinned') deps.storage.write(JSON.stringify(verdict.pins));
    this.#set({
      certificate: verdict.status,
      certificateFingerprint: verdict.fingerprint,
      pinnedCertificates: verdict.pins,
    });
    const log = deps.log;
    if (verdict.status === 'localhost') log.info('Certificate check skipped on localhost');
    else if (verdict.status === 'pinned') log.success('Server certificate pinned (first use)');
    else if (verdict.status === 'valid') log.success('Server certificate matches its pin');
    else if (verdict.status === 'invalid')
      log.error(`${TEXT.certMismatch}: ${TEXT.certificateValidationFailed}`);
    else log.warning('No server certificate to check: the link is not TLS');
    return verdict.status;
  }

  /** RESET_CERTIFICATES: forgets every pin, then checks again (pinning the current one). */
  async resetCertificates(): Promise<CertificateStatus> {
    this.deps.storage.clear();
    this.deps.log.warning('Certificate pins cleared');
    return this.checkCertificate();
  }

  /** One PFS exchange; failure is logged with the spec's text and kept as `failed`. */
  async exchangePfs(): Promise<void> {
    try {
      const key = await this.deps.exchangePfs();
      this.#set({ pfs: { status: 'active', key, exchangedAt: this.deps.now() } });
      this.deps.log.success(`PFS key exchange confirmed (forward-secrecy key ${key.keyId})`);
    } catch (error) {
      this.#set({ pfs: { ...this.#state.pfs, status: 'failed' } });
      this.deps.log.error(describeError(error));
    }
  }
}
