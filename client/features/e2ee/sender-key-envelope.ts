/**
 * The sender keys one member hands another through the relay (`sender_key` frames), and the
 * mapping between the library's pairwise envelope and the frame's envelope:
 *
 * ```
 * payload (inside the AES-256-GCM of the pairwise wrap, never readable by the relay):
 *   UTF-8( canonical JSON { "v": 2, "k": senderKeyId, "s": "chain" | "quantum",
 *                           "key": base64(32 bytes), "i": the sender's next iteration } )
 *   s = "chain"    → key = chainKeyᵢ, the sender chain at iteration i (a snapshot, as Megolm
 *                    shares its ratchet): the reader derives message keys i, i+1, … and never an
 *                    earlier one, so nothing sent before it was handed over opens (issue 14)
 *   s = "quantum"  → key = SKq
 *   s = "voice"    → key = the sender's frame key for a voice call, k = the call key id, i = the
 *                    key's version (1..255, the first byte of every sealed audio frame); sent only
 *                    to the call's participants (docs/crypto-room.md "Voice")
 *   all travel in the hybrid wrap (ECDH P-256 + ML-KEM-768), one frame each
 *
 * PairwiseEnvelope {v, kind, from, to, roomId, iv, ct, kem?}   (shared/crypto/room)
 *   ⇄ frame envelope {v, kind, iv, ciphertext, kemCiphertext?}  (shared/protocol/ws/e2ee.ts)
 * from, to and roomId are not sent: the receiver takes them from the relay (`fromNodeId`), itself
 * and the room, and the wrap's AAD checks all three.
 * ```
 */
import { z } from 'zod';
import {
  base64ToBytes,
  bytesToBase64,
  utf8Decode,
  utf8Encode,
} from '../../../shared/crypto/bytes.js';
import { canonicalJson } from '../../../shared/crypto/canonical-json.js';
import {
  DecryptError,
  parsePairwiseEnvelope,
  SENDER_KEY_BYTES,
  type PairwiseEnvelope,
} from '../../../shared/crypto/room/index.js';
import { IterationSchema, SenderKeyIdSchema } from '../../../shared/crypto/room/room-wire.js';
import { type SenderKeyEnvelopeSchema } from '../../../shared/protocol/ws/e2ee.js';

/** The envelope of a `sender_key` frame. */
export type SenderKeyWireEnvelope = z.infer<typeof SenderKeyEnvelopeSchema>;

/** What one envelope hands over. */
export interface SenderKeyGrant {
  senderKeyId: string;
  /** chain: the sender chain's key at `iteration`; quantum: SKq. */
  secret: 'chain' | 'quantum';
  /** 32 bytes. */
  key: Uint8Array;
  /** The sender's next chain iteration when it was sent (where a reader's chain starts). */
  iteration: number;
}

/** A voice call's frame key, handed from one participant to another. */
export interface VoiceKeyGrant {
  secret: 'voice';
  /** Names the sender's frame keys for one call. */
  callKeyId: string;
  /** 1..255: the version byte of the frames sealed under it. */
  version: number;
  /** 32 bytes. */
  key: Uint8Array;
}

/** Whatever a `sender_key` envelope can hand over. */
export type KeyGrant = SenderKeyGrant | VoiceKeyGrant;

const PayloadSchema = z.strictObject({
  v: z.literal(2),
  k: SenderKeyIdSchema,
  s: z.enum(['chain', 'quantum', 'voice']),
  key: z.string().max(64),
  i: IterationSchema,
});

/** The bytes to wrap. */
export function encodeSenderKeyPayload(grant: SenderKeyGrant): Uint8Array {
  return utf8Encode(
    canonicalJson({
      v: 2,
      k: grant.senderKeyId,
      s: grant.secret,
      key: bytesToBase64(grant.key),
      i: grant.iteration,
    }),
  );
}

/** The bytes to wrap for a voice frame key. */
export function encodeVoiceKeyPayload(grant: VoiceKeyGrant): Uint8Array {
  return utf8Encode(
    canonicalJson({
      v: 2,
      k: grant.callKeyId,
      s: 'voice',
      key: bytesToBase64(grant.key),
      i: grant.version,
    }),
  );
}

/**
 * The grant inside an unwrapped payload.
 * @throws DecryptError `MALFORMED` on anything else.
 */
export function decodeSenderKeyPayload(bytes: Uint8Array): KeyGrant {
  try {
    const parsed = PayloadSchema.parse(JSON.parse(utf8Decode(bytes)));
    const key = base64ToBytes(parsed.key);
    if (key.length !== SENDER_KEY_BYTES) throw new RangeError('A sender key is 32 bytes');
    if (parsed.s === 'voice') {
      if (parsed.i < 1 || parsed.i > 255) throw new RangeError('A frame key version is 1..255');
      return { secret: 'voice', callKeyId: parsed.k, version: parsed.i, key };
    }
    return { senderKeyId: parsed.k, secret: parsed.s, key, iteration: parsed.i };
  } catch (error) {
    throw new DecryptError('MALFORMED', { cause: error });
  }
}

/** The frame's envelope for a wrapped secret. */
export function toWireEnvelope(envelope: PairwiseEnvelope): SenderKeyWireEnvelope {
  return envelope.kind === 'hybrid'
    ? {
        v: 1,
        kind: 'hybrid',
        iv: envelope.iv,
        ciphertext: envelope.ct,
        kemCiphertext: envelope.kem,
      }
    : { v: 1, kind: 'classic', iv: envelope.iv, ciphertext: envelope.ct };
}

/**
 * The pairwise envelope of a received frame, with the header this receiver expects.
 * @throws DecryptError `MALFORMED` when the fields do not make a valid envelope.
 */
export function fromWireEnvelope(
  wire: SenderKeyWireEnvelope,
  header: { from: string; to: string; roomId: string },
): PairwiseEnvelope {
  const common = { v: 1, ...header, iv: wire.iv, ct: wire.ciphertext };
  return parsePairwiseEnvelope(
    wire.kind === 'hybrid'
      ? { ...common, kind: 'hybrid', kem: wire.kemCiphertext }
      : { ...common, kind: 'classic' },
  );
}
