/**
 * The server's long-term identity (DESIGN.md "Server identity"): an Ed25519 key pair (RFC 8032,
 * `@noble/curves`) that the browser pins on first use and checks on every visit before its socket
 * joins a room.
 *
 * ```
 * identity fingerprint = lowercase hex( SHA-256( Ed25519 public key (32) ) )
 * signed bytes         = UTF-8( canonical JSON {
 *                          "challenge":   the browser's nonce (hex),
 *                          "ctx":         "securechannel/v1/certificate-info",
 *                          "fingerprint": the fingerprint the answer reports (hex),
 *                          "identityKey": the public key (hex) } )
 * signature            = Ed25519(private key, signed bytes)               64 bytes
 * ```
 *
 * Binding the reported fingerprint into the signature stops a relay in the middle from pairing
 * the real identity's signature with another certificate's fingerprint.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { hexToBytes, toHex, utf8Encode } from './bytes.js';
import { canonicalJson } from './canonical-json.js';
import { sha256Hex } from './fingerprint.js';

/** The context label of the certificate-info signature. */
export const CERTIFICATE_INFO_CONTEXT = 'securechannel/v1/certificate-info';

/** An identity key pair: 32-byte Ed25519 secret seed and public key. */
export interface ServerIdentityKeyPair {
  secretKey: Uint8Array;
  publicKey: Uint8Array;
}

/** A fresh identity key pair from the platform's random source. */
export function generateServerIdentity(): ServerIdentityKeyPair {
  const secretKey = ed25519.utils.randomSecretKey();
  return { secretKey, publicKey: ed25519.getPublicKey(secretKey) };
}

/** The public key of a stored secret seed. */
export function serverIdentityFromSecret(secretKey: Uint8Array): ServerIdentityKeyPair {
  return { secretKey, publicKey: ed25519.getPublicKey(secretKey) };
}

/** The identity fingerprint: hex SHA-256 of the public key. */
export function serverIdentityFingerprint(publicKey: Uint8Array): string {
  return sha256Hex(publicKey);
}

/** The bytes the identity key signs for one challenge. */
export function certificateInfoSignedBytes(input: {
  challenge: string;
  fingerprint: string;
  identityKey: string;
}): Uint8Array {
  return utf8Encode(
    canonicalJson({
      challenge: input.challenge,
      ctx: CERTIFICATE_INFO_CONTEXT,
      fingerprint: input.fingerprint,
      identityKey: input.identityKey,
    }),
  );
}

/** Signs a challenge; returns the 64-byte signature as hex. */
export function signCertificateChallenge(
  identity: ServerIdentityKeyPair,
  challenge: string,
  fingerprint: string,
): string {
  const message = certificateInfoSignedBytes({
    challenge,
    fingerprint,
    identityKey: toHex(identity.publicKey),
  });
  return toHex(ed25519.sign(message, identity.secretKey));
}

/** True when `signature` is the identity key's signature over this challenge and fingerprint. */
export function verifyCertificateChallenge(input: {
  challenge: string;
  fingerprint: string;
  identityKey: string;
  signature: string;
}): boolean {
  try {
    return ed25519.verify(
      hexToBytes(input.signature),
      certificateInfoSignedBytes(input),
      hexToBytes(input.identityKey),
    );
  } catch {
    return false;
  }
}
