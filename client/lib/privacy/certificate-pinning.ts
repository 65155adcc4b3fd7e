/**
 * Trust-on-first-use pinning of the server (spec 000 §3 "Certificate info", §4 "Certificate
 * status", §8 "Certificate mismatch"; DESIGN.md "Server identity"). The browser sends a fresh
 * challenge to `GET /api/certificate-info`, checks the server identity key's Ed25519 signature over
 * it (and, for an identity fingerprint, that the fingerprint is the key's), then pins the
 * fingerprint and the identity key per origin in localStorage `pinnedCertificates`, and compares
 * both on every later visit.
 *
 * What this can and cannot do: a page cannot read the TLS certificate it is talking over, so the
 * TLS fingerprint is the server's own answer; the identity signature proves that whoever answers
 * holds the pinned identity key. A server (or a relay in front) that changes its identity between
 * visits is caught; one that was already someone else's on the first visit is not (trust on first
 * use). On localhost the check is skipped, as the spec says.
 */
import {
  serverIdentityFingerprint,
  verifyCertificateChallenge,
} from '../../../shared/crypto/server-identity.js';
import { hexToBytes } from '../../../shared/crypto/bytes.js';
import { type CertificateInfo } from '../../../shared/protocol/http/privacy.js';
import { isLocalhost, type CertificateStatus } from './pins.js';
import { type PinnedCertificate } from './pin-schema.js';

export { isCertificateOk, isLocalhost, type CertificateStatus } from './pins.js';
export {
  parsePins,
  PinnedCertificateSchema,
  PinnedCertificatesSchema,
  type PinnedCertificate,
} from './pin-schema.js';

export interface CertificateVerdict {
  status: CertificateStatus;
  /** The pins to store afterwards (unchanged unless a first use was pinned or a pin upgraded). */
  pins: PinnedCertificate[];
  fingerprint: string | null;
}

/** True when the answer proves possession of its identity key for this challenge. */
export function isAnswerAuthentic(info: CertificateInfo, challenge: string): boolean {
  if (info.challenge !== challenge || info.signature === undefined) return false;
  if (info.source === 'identity') {
    if (serverIdentityFingerprint(hexToBytes(info.identityKey)) !== info.fingerprint) return false;
  }
  return verifyCertificateChallenge({
    challenge,
    fingerprint: info.fingerprint,
    identityKey: info.identityKey,
    signature: info.signature,
  });
}

/** Decides the status from the server's answer, the challenge sent and the stored pins. Pure. */
export function evaluateCertificate(input: {
  origin: string;
  hostname: string;
  info: CertificateInfo | null;
  challenge: string;
  pins: readonly PinnedCertificate[];
  now: number;
}): CertificateVerdict {
  const pins = [...input.pins];
  if (isLocalhost(input.hostname)) return { status: 'localhost', pins, fingerprint: null };
  const { info } = input;
  if (info === null) return { status: 'unavailable', pins, fingerprint: null };
  const { fingerprint, identityKey } = info;
  if (!isAnswerAuthentic(info, input.challenge)) return { status: 'invalid', pins, fingerprint };
  const index = pins.findIndex((pin) => pin.origin === input.origin);
  const pinned = pins[index];
  if (!pinned) {
    pins.push({
      origin: input.origin,
      fingerprint,
      identityKey,
      pinnedAt: new Date(input.now).toISOString(),
    });
    return { status: 'pinned', pins, fingerprint };
  }
  if (pinned.fingerprint !== fingerprint) return { status: 'invalid', pins, fingerprint };
  if (pinned.identityKey === undefined) {
    // A pin from before server identities: the fingerprint matched, so add the identity to it.
    pins[index] = { ...pinned, identityKey };
    return { status: 'valid', pins, fingerprint };
  }
  return { status: pinned.identityKey === identityKey ? 'valid' : 'invalid', pins, fingerprint };
}
