/**
 * The page's link to the relay, as the security status bar reports it: the server's pinned
 * identity (the page's ServerTrust, client/features/privacy/) and the forward-secrecy key of the last PFS exchange (pfs-exchange.ts),
 * redone every PFS_KEY_ROTATION_MS. Both are written to the crypto log.
 */
import { TEXT } from '../../../shared/protocol/errors.js';
import { type CertificateStatus, type PinnedCertificate } from '../../lib/privacy/pins.js';
import { getServerTrust, type ServerTrust } from '../../lib/privacy/server-trust.js';
import { type CryptoLog } from './crypto-log.js';
import { describeError } from './e2ee-status.js';
import type { PfsKey } from './pfs-exchange.js';

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
  trust: ServerTrust;
  exchangePfs: () => Promise<PfsKey>;
}

/**
 * The browser's defaults: the page's ServerTrust and the PFS exchange over fetch, whose ECDH and
 * HKDF code is fetched with the first exchange rather than before the page paints.
 */
export function browserTransportDeps(log: CryptoLog): TransportSecurityDeps {
  return {
    log,
    now: Date.now,
    trust: getServerTrust(),
    exchangePfs: async () => (await import('./pfs-exchange.js')).exchangePfsKey(),
  };
}

export class TransportSecurity {
  #state: TransportSecurityState;
  readonly #listeners = new Set<() => void>();

  constructor(private readonly deps: TransportSecurityDeps) {
    this.#state = {
      certificate: 'checking',
      certificateFingerprint: null,
      pinnedCertificates: deps.trust.getState().pins,
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

  /** Waits for the page's verdict on the server (checked once per page) and reports it. */
  async checkCertificate(): Promise<CertificateStatus> {
    this.#set({ certificate: 'checking' });
    return this.#report(await this.deps.trust.verify());
  }

  /** RESET_CERTIFICATES: forgets every pin, then checks again (pinning the current answer). */
  async resetCertificates(): Promise<CertificateStatus> {
    this.deps.log.warning('Certificate pins cleared');
    this.#set({ certificate: 'checking' });
    return this.#report(await this.deps.trust.reset());
  }

  #report(status: CertificateStatus): CertificateStatus {
    const trust = this.deps.trust.getState();
    this.#set({
      certificate: status,
      certificateFingerprint: trust.fingerprint,
      pinnedCertificates: trust.pins,
    });
    const log = this.deps.log;
    if (status === 'localhost') log.info('Certificate check skipped on localhost');
    else if (status === 'pinned') log.success('Server identity pinned (first use)');
    else if (status === 'valid') log.success('Server identity matches its pin');
    else if (status === 'invalid')
      log.error(`${TEXT.certMismatch}: ${TEXT.certificateValidationFailed}`);
    else log.error(`${TEXT.certFail}: the server's identity could not be checked`);
    return status;
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
