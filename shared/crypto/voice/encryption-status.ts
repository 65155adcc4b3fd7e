/**
 * The signed `encryption_status` statement of a voice call (docs/crypto-room.md §15, "Encryption
 * status"). A participant who turns frame encryption off (or on again) says so to each other
 * participant with a statement signed by its session ML-DSA-65 key — the key its room bundle
 * carries, signed by its key file and pinned where it has one, the key its messages are signed
 * with. A receiver plays clear frames (0x00) from a participant only under such a statement; the
 * relay's own word (`fromParticipant`, `encryptionEnabled`) decides nothing.
 *
 * ```
 * signed bytes = UTF-8( canonical JSON {
 *     "ctx": "securechannel/v1/voice-encryption-status", "room": room secure id,
 *     "from": sender node id, "enc": encryptionEnabled, "ts": sender's ms time,
 *     "to": { recipient node id: that recipient's call id, … } } )
 * proof (the frame's `proof`) = { "v": 1, "ts", "to", "sig": base64(3309-byte ML-DSA-65) }
 * ```
 *
 * - room and from: a statement cannot be moved to another room or relabelled as another sender;
 * - to: each recipient's call id is 12 random bytes that recipient drew when it joined this call
 *   and handed out with its frame keys (the pairwise key channel), so a statement is good for the
 *   recipients' current call only: one from an earlier call carries their earlier call ids;
 * - ts: the counter. A receiver accepts a sender's statements only in rising `ts` order for the
 *   whole of its call (older ones are replays), and only within VOICE_STATUS_MAX_SKEW_MS of its
 *   own clock (a statement withheld and released later goes stale).
 */
import { base64ToBytes, bytesToBase64, utf8Encode } from '../bytes.js';
import { canonicalJson } from '../canonical-json.js';
import { signMlDsa, verifyMlDsa } from '../ml-dsa.js';
import { VoiceStatusProofSchema, type VoiceStatusProof } from '../../protocol/ws/voice.js';

export const VOICE_STATUS_CONTEXT = 'securechannel/v1/voice-encryption-status';
/** How far a statement's `ts` may be from the receiver's clock (as a message's signed time). */
export const VOICE_STATUS_MAX_SKEW_MS = 120_000;
/**
 * How long a receiver honours an "encryption off" statement after accepting it. The sender renews
 * it with every key rotation (30 s), so a withheld "on" keeps clear frames playable this long at
 * most, and only from a participant who did say "off" in this call.
 */
export const VOICE_STATUS_CLEAR_TTL_MS = 65_000;

/** What a statement says. */
export interface VoiceStatusFields {
  /** The room's secure id. */
  roomId: string;
  fromNodeId: string;
  encryptionEnabled: boolean;
  /** The sender's ms time; strictly rising per sender. */
  sentAt: number;
  /** Recipient node id → that recipient's call id. */
  recipients: Readonly<Record<string, string>>;
}

/**
 * Why a statement was refused.
 * - `MISSING`: the frame carries no proof (the spec's bare frame, or a relay's).
 * - `MALFORMED`: the proof is not of the format above.
 * - `BAD_SIGNATURE`: the signature does not verify under the sender's signing keys: forged, a bit
 *   changed, another room, another sender, or the other `encryptionEnabled`.
 * - `NOT_ADDRESSED`: it names no entry for this receiver (the sender did not know its call id yet,
 *   or it is another participant's): nothing to act on.
 * - `NOT_FOR_THIS_CALL`: it names this receiver with another call id: made for another call.
 * - `REPLAYED`: its `ts` is not after the last statement accepted from this sender.
 * - `STALE`: its `ts` is more than VOICE_STATUS_MAX_SKEW_MS from the receiver's clock.
 */
export type VoiceStatusErrorCode =
  | 'MISSING'
  | 'MALFORMED'
  | 'BAD_SIGNATURE'
  | 'NOT_ADDRESSED'
  | 'NOT_FOR_THIS_CALL'
  | 'REPLAYED'
  | 'STALE';

const ERROR_TEXT: Readonly<Record<VoiceStatusErrorCode, string>> = {
  MISSING: 'carries no signature',
  MALFORMED: 'is malformed',
  BAD_SIGNATURE: 'has a signature that does not verify',
  NOT_ADDRESSED: 'is not addressed to this participant',
  NOT_FOR_THIS_CALL: 'was made for another call',
  REPLAYED: 'is a replay of an earlier one',
  STALE: 'is too old or too far in the future',
};

export class VoiceStatusError extends Error {
  constructor(
    readonly code: VoiceStatusErrorCode,
    options?: ErrorOptions,
  ) {
    super(`Encryption status ${ERROR_TEXT[code]}`, options);
    this.name = 'VoiceStatusError';
  }
}

/** The bytes a statement's signature covers. */
export function voiceStatusSignedBytes(fields: VoiceStatusFields): Uint8Array {
  return utf8Encode(
    canonicalJson({
      ctx: VOICE_STATUS_CONTEXT,
      room: fields.roomId,
      from: fields.fromNodeId,
      enc: fields.encryptionEnabled,
      ts: fields.sentAt,
      to: { ...fields.recipients },
    }),
  );
}

/** The frame's `proof` of a statement, signed with the sender's session ML-DSA-65 key. */
export function signVoiceStatus(
  fields: VoiceStatusFields,
  secretKey: Uint8Array,
): VoiceStatusProof {
  const sig = bytesToBase64(signMlDsa(voiceStatusSignedBytes(fields), secretKey));
  return { v: 1, ts: fields.sentAt, to: { ...fields.recipients }, sig };
}

/** What a receiver checks a statement against. */
export interface VoiceStatusCheck {
  /** The room's secure id, as this receiver knows it. */
  roomId: string;
  /** Who the relay says sent it (`fromParticipant`): the signature must be that member's. */
  fromNodeId: string;
  /** What the frame says (`encryptionEnabled`): the signature must cover it. */
  encryptionEnabled: boolean;
  selfNodeId: string;
  /** This receiver's call id in its current call. */
  selfCallId: string;
  /** The `ts` of the last statement accepted from this sender in this call, or null. */
  lastSentAt: number | null;
  now: number;
  /** The sender's signing keys accepted right now (current, and the previous within its grace). */
  publicKeys: readonly Uint8Array[];
}

/**
 * Checks a frame's `proof`; returns the statement's `ts` (the next `lastSentAt`).
 * @throws VoiceStatusError with the first reason it fails.
 */
export function verifyVoiceStatus(proof: unknown, check: VoiceStatusCheck): number {
  if (proof === undefined || proof === null) throw new VoiceStatusError('MISSING');
  const parsed = VoiceStatusProofSchema.safeParse(proof);
  if (!parsed.success) throw new VoiceStatusError('MALFORMED', { cause: parsed.error });
  const { ts, to, sig } = parsed.data;
  let signature: Uint8Array;
  try {
    signature = base64ToBytes(sig);
  } catch (error) {
    throw new VoiceStatusError('MALFORMED', { cause: error });
  }
  const message = voiceStatusSignedBytes({
    roomId: check.roomId,
    fromNodeId: check.fromNodeId,
    encryptionEnabled: check.encryptionEnabled,
    sentAt: ts,
    recipients: to,
  });
  if (!check.publicKeys.some((publicKey) => verifyMlDsa(signature, message, publicKey)))
    throw new VoiceStatusError('BAD_SIGNATURE');
  if (!Object.hasOwn(to, check.selfNodeId)) throw new VoiceStatusError('NOT_ADDRESSED');
  if (to[check.selfNodeId] !== check.selfCallId) throw new VoiceStatusError('NOT_FOR_THIS_CALL');
  if (check.lastSentAt !== null && ts <= check.lastSentAt) throw new VoiceStatusError('REPLAYED');
  if (Math.abs(ts - check.now) > VOICE_STATUS_MAX_SKEW_MS) throw new VoiceStatusError('STALE');
  return ts;
}
