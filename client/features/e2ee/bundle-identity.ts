/**
 * A key holder's signature on their room key bundle, and its check by the other members
 * (docs/crypto-room.md, "In the browser"). The signed bytes are:
 *
 * ```
 * UTF-8( canonical JSON { "ctx": "securechannel/v1/room-key-bundle", "room": secureId,
 *                         "node": the signer's nodeId,
 *                         "bundle": the bundle with its identity minus the two signatures } )
 * signatures: ML-DSA-65 (3309 bytes) and ECDSA P-256/SHA-256 (64 bytes, r ‖ s) with the key file
 * ```
 *
 * Binding the room and the node id means a relay cannot replay a key holder's bundle in another
 * room or for another connection; binding the session keys (ecdh, kem, rsa, sig) means it cannot
 * swap them under a valid identity. Anonymous members announce no identity: nothing to check.
 */
import {
  base64ToBytes,
  bytesToBase64,
  numbersToBytes,
  utf8Encode,
} from '../../../shared/crypto/bytes.js';
import { canonicalJson } from '../../../shared/crypto/canonical-json.js';
import { signEcdsa, verifyEcdsa } from '../../../shared/crypto/ecdsa-p256.js';
import { computeKeyFingerprint } from '../../../shared/crypto/fingerprint.js';
import { type KeyFile } from '../../../shared/crypto/key-file-schema.js';
import { signMlDsa, verifyMlDsa } from '../../../shared/crypto/ml-dsa.js';
import { type KeyBundle } from '../../../shared/protocol/ws/e2ee.js';
import { BUNDLE_SIGNATURE_CONTEXT } from './e2ee-constants.js';
import { type UnsignedBundle } from './session-keys.js';

/** Where a bundle was announced: bound into its signature. */
export interface BundleBinding {
  /** The room's secure id. */
  roomId: string;
  /** The announcing member's node id. */
  nodeId: string;
}

/** The public identity fields a signed bundle carries. */
export type BundleIdentityFields = Omit<
  NonNullable<KeyBundle['identity']>,
  'dilithiumSignature' | 'ecdsaSignature'
>;

/** What signs bundles for a key holder: built from the key file held in memory. */
export interface BundleIdentitySigner {
  fields: BundleIdentityFields;
  sign(message: Uint8Array): Promise<{ dilithium: Uint8Array; ecdsa: Uint8Array }>;
}

/** The signer of a key file's owner; null when the file holds no private keys. */
export function identitySignerFromKeyFile(keyFile: KeyFile): BundleIdentitySigner | null {
  const { dilithiumPrivateKey, ecdsaPrivateKey } = keyFile;
  if (dilithiumPrivateKey === undefined || ecdsaPrivateKey === undefined) return null;
  return {
    fields: {
      keyId: keyFile.keyId,
      username: keyFile.username,
      dilithiumPublicKey: bytesToBase64(numbersToBytes(keyFile.dilithiumPublicKey)),
      ecdsaPublicKey: bytesToBase64(numbersToBytes(keyFile.ecdsaPublicKey)),
      fingerprint: keyFile.fingerprint,
    },
    async sign(message) {
      const dilithium = signMlDsa(message, numbersToBytes(dilithiumPrivateKey));
      const ecdsa = await signEcdsa(message, numbersToBytes(ecdsaPrivateKey));
      return { dilithium, ecdsa };
    },
  };
}

/** The bytes a bundle's identity signatures cover (see the diagram above). */
export function bundleSignedBytes(
  bundle: UnsignedBundle & { identity?: BundleIdentityFields },
  binding: BundleBinding,
): Uint8Array {
  const { identity, ...keys } = bundle;
  const unsignedIdentity = identity
    ? {
        keyId: identity.keyId,
        username: identity.username,
        dilithiumPublicKey: identity.dilithiumPublicKey,
        ecdsaPublicKey: identity.ecdsaPublicKey,
        fingerprint: identity.fingerprint,
      }
    : undefined;
  return utf8Encode(
    canonicalJson({
      ctx: BUNDLE_SIGNATURE_CONTEXT,
      room: binding.roomId,
      node: binding.nodeId,
      bundle: { ...keys, identity: unsignedIdentity },
    }),
  );
}

/** The bundle to announce: unsigned for anonymous members, signed for key holders. */
export async function signBundle(
  bundle: UnsignedBundle,
  binding: BundleBinding,
  signer: BundleIdentitySigner | null,
): Promise<KeyBundle> {
  if (signer === null) return bundle;
  const message = bundleSignedBytes({ ...bundle, identity: signer.fields }, binding);
  const { dilithium, ecdsa } = await signer.sign(message);
  return {
    ...bundle,
    identity: {
      ...signer.fields,
      dilithiumSignature: bytesToBase64(dilithium),
      ecdsaSignature: bytesToBase64(ecdsa),
    },
  };
}

/** What a bundle's identity proves on its own (before pins and the key registry). */
export type IdentityCheck =
  | { status: 'anonymous' }
  | { status: 'valid'; keyId: string; fingerprint: string; dilithiumPublicKey: Uint8Array }
  | { status: 'invalid'; reason: string };

function decode(text: string): Uint8Array | null {
  try {
    return base64ToBytes(text);
  } catch {
    return null;
  }
}

/**
 * Checks a bundle's identity: the fingerprint matches its keys, both signatures verify over the
 * bundle and its binding, and the name is the one the relay gives the member (a key holder's
 * session name is their key's username).
 */
export async function checkBundleIdentity(
  bundle: KeyBundle,
  binding: BundleBinding,
  relayedUsername: string,
): Promise<IdentityCheck> {
  const { identity } = bundle;
  if (!identity) return { status: 'anonymous' };
  const dilithiumPublicKey = decode(identity.dilithiumPublicKey);
  const ecdsaPublicKey = decode(identity.ecdsaPublicKey);
  const dilithiumSignature = decode(identity.dilithiumSignature);
  const ecdsaSignature = decode(identity.ecdsaSignature);
  if (!dilithiumPublicKey || !ecdsaPublicKey || !dilithiumSignature || !ecdsaSignature) {
    return { status: 'invalid', reason: 'malformed identity keys' };
  }
  if (computeKeyFingerprint(dilithiumPublicKey, ecdsaPublicKey) !== identity.fingerprint) {
    return { status: 'invalid', reason: 'fingerprint does not match the identity keys' };
  }
  const message = bundleSignedBytes(bundle, binding);
  const isSigned =
    verifyMlDsa(dilithiumSignature, message, dilithiumPublicKey) &&
    (await verifyEcdsa(ecdsaSignature, message, ecdsaPublicKey));
  if (!isSigned) return { status: 'invalid', reason: 'bundle signature does not verify' };
  if (identity.username !== relayedUsername) {
    return { status: 'invalid', reason: 'identity name differs from the member name' };
  }
  return {
    status: 'valid',
    keyId: identity.keyId,
    fingerprint: identity.fingerprint,
    dilithiumPublicKey,
  };
}
