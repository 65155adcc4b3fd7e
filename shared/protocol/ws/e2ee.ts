/**
 * Room key agreement frames (docs/crypto-room.md). The server relays them and keeps each member's
 * latest public bundle for newcomers; it never sees a private key or a sender key in the clear:
 * sender keys travel only inside pairwise envelopes addressed to one member.
 */
import { z } from 'zod';

const b64 = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'Expected base64');

/**
 * A member's public key bundle for one session: ECDH P-256 (raw point), ML-KEM-768, RSA-OAEP
 * (SPKI) and the current ML-DSA-65 message-signing key. Key holders add their key file's public
 * keys and sign the bundle with them, so a substituted bundle is detected.
 */
export const KeyBundleSchema = z.strictObject({
  v: z.literal(1),
  ecdh: b64(100),
  kem: b64(1700),
  rsa: b64(800),
  sig: b64(2700),
  createdAt: z.number().int().nonnegative(),
  /**
   * The check value of the room's ZK-AES-256 key when this member derived it from the access code
   * in this session (docs/crypto-room.md §8): senders pick ZK-AES-256 only when every reader
   * announces the same value. It is a verifier of the code as costly to search as a ZK ciphertext
   * (100,000 PBKDF2 rounds a guess), and the code itself never leaves the browser.
   */
  zk: z
    .string()
    .regex(/^[0-9a-f]{16}$/)
    .optional(),
  identity: z
    .strictObject({
      keyId: z.string().max(40),
      username: z.string().max(64),
      dilithiumPublicKey: b64(2700),
      ecdsaPublicKey: b64(100),
      fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
      dilithiumSignature: b64(4500),
      ecdsaSignature: b64(100),
    })
    .optional(),
});
export type KeyBundle = z.infer<typeof KeyBundleSchema>;

/** A pairwise envelope carrying sender keys; opaque to the server (base64 fields). */
export const SenderKeyEnvelopeSchema = z.strictObject({
  v: z.literal(1),
  kind: z.enum(['classic', 'hybrid']),
  kemCiphertext: b64(1700).optional(),
  iv: b64(24),
  ciphertext: b64(4000),
});

/** `key_announce`: publish this member's bundle to the room. */
export const KeyAnnounceFrameSchema = z.strictObject({
  type: z.literal('key_announce'),
  bundle: KeyBundleSchema,
});

/** `sender_key`: hand sender keys to one member of the room. */
export const SenderKeyFrameSchema = z.strictObject({
  type: z.literal('sender_key'),
  targetNodeId: z.string().min(1).max(80),
  envelope: SenderKeyEnvelopeSchema,
});

/** Server → client: a member's bundle (on announce), or every current bundle (after joining). */
export const KeyAnnouncedFrameSchema = z.object({
  type: z.literal('key_announce'),
  fromNodeId: z.string(),
  username: z.string(),
  bundle: KeyBundleSchema,
});
export const KeyBundlesFrameSchema = z.object({
  type: z.literal('key_bundles'),
  bundles: z.array(z.object({ nodeId: z.string(), username: z.string(), bundle: KeyBundleSchema })),
});
export const SenderKeyDeliveredFrameSchema = z.object({
  type: z.literal('sender_key'),
  fromNodeId: z.string(),
  envelope: SenderKeyEnvelopeSchema,
});
