/**
 * What `GET /api/certificate-info` reports: the fingerprint a browser pins and the identity key
 * that proves possession by signing the browser's challenge (DESIGN.md "Server identity").
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { toHex } from '../../../shared/crypto/bytes.js';
import {
  serverIdentityFingerprint,
  signCertificateChallenge,
  type ServerIdentityKeyPair,
} from '../../../shared/crypto/server-identity.js';
import type { CertificateInfo } from '../../../shared/protocol/http/privacy.js';

/** SHA-256 of a PEM certificate's DER bytes, lowercase hex. */
export function certificateFingerprint(certPath: string): string {
  const certificate = new X509Certificate(readFileSync(certPath));
  return certificate.fingerprint256.replaceAll(':', '').toLowerCase();
}

export class ServerIdentity {
  readonly #keyPair: ServerIdentityKeyPair;
  readonly #identityKey: string;
  readonly #fingerprint: string;
  readonly #source: CertificateInfo['source'];
  readonly #tls: boolean;

  /**
   * @param certificate the TLS certificate's path and whether this server terminates TLS with it
   *   (false: a proxy in front serves it); null without one.
   */
  constructor(
    keyPair: ServerIdentityKeyPair,
    certificate: { path: string; isTerminatedHere: boolean } | null,
  ) {
    this.#keyPair = keyPair;
    this.#identityKey = toHex(keyPair.publicKey);
    this.#fingerprint = certificate
      ? certificateFingerprint(certificate.path)
      : serverIdentityFingerprint(keyPair.publicKey);
    this.#source = certificate ? 'tls' : 'identity';
    this.#tls = certificate?.isTerminatedHere ?? false;
  }

  /** The answer of certificate-info; signed when a challenge is given. */
  describe(challenge: string | null): CertificateInfo {
    const base: CertificateInfo = {
      fingerprint: this.#fingerprint,
      source: this.#source,
      tls: this.#tls,
      identityKey: this.#identityKey,
    };
    if (challenge === null) return base;
    return {
      ...base,
      challenge,
      signature: signCertificateChallenge(this.#keyPair, challenge, this.#fingerprint),
    };
  }
}
