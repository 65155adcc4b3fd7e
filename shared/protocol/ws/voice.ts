/**
 * Voice signalling frames (spec 000 §7), relayed by the server between the participants of a
 * room's call. Media never passes through the server; SDP and ICE payloads are opaque to it and
 * only bounded here. docs/protocol.md "Voice calls" describes who receives what.
 */
import { z } from 'zod';
import { displayNameSchema, TEXT_RULE_PARAMS } from '../text.js';

const roomId = z.string().min(1).max(80);
const nodeId = z.string().min(1).max(80);

/** The largest SDP or ICE payload, in characters of its JSON. */
export const SIGNAL_DATA_MAX_CHARS = 16_000;

/**
 * An SDP or ICE payload: opaque to the server but bounded. Its fixed message may be shown to the
 * sender (the text rule's marker makes the hub quote it).
 */
const signalData = z
  .unknown()
  .refine((value) => (JSON.stringify(value ?? null) ?? '').length <= SIGNAL_DATA_MAX_CHARS, {
    message: 'Signal payload too large',
    params: TEXT_RULE_PARAMS,
  });

/** The signal kinds of `webrtc_signaling`. */
export const SignalTypeSchema = z.enum(['offer', 'answer', 'ice_candidate']);
export type SignalType = z.infer<typeof SignalTypeSchema>;

/** C→S `webrtc_signaling`: an offer, answer or ICE candidate for one participant of the call. */
export const WebrtcSignalingFrameSchema = z.strictObject({
  type: z.literal('webrtc_signaling'),
  roomId,
  targetParticipant: nodeId,
  signalType: SignalTypeSchema,
  data: signalData,
});

/** C→S `webrtc_offer` / `webrtc_answer` / `webrtc_ice_candidate`: the spec's older targeted form. */
export const WebrtcDirectFrameSchema = z.strictObject({
  type: z.enum(['webrtc_offer', 'webrtc_answer', 'webrtc_ice_candidate']),
  target: nodeId,
  data: signalData,
});

/** The most recipients one `encryption_status` statement names (a call's other participants). */
export const VOICE_STATUS_MAX_RECIPIENTS = 64;

/**
 * The sender's signature over its `encryption_status` (shared/crypto/voice/encryption-status.ts,
 * docs/crypto-room.md §15 "Encryption status"): `ts` the sender's ms time, strictly rising (the
 * counter); `to` each recipient's node id → that recipient's call id; `sig` base64 ML-DSA-65 with
 * the sender's session signing key. Opaque to the server, relayed as it came.
 */
export const VoiceStatusProofSchema = z.strictObject({
  v: z.literal(1),
  ts: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  to: z
    .record(nodeId, z.string().regex(/^[0-9a-f]{24}$/))
    .refine((to) => Object.keys(to).length <= VOICE_STATUS_MAX_RECIPIENTS, {
      message: 'Too many recipients',
    }),
  sig: z
    .string()
    .max(4_500)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/),
});
export type VoiceStatusProof = z.infer<typeof VoiceStatusProofSchema>;

/**
 * C→S `encryption_status`: a participant switched media encryption on or off (spec 000 §7:
 * `{roomId, encryptionEnabled, timestamp}`), with `proof`, its signature. Receivers act only on a
 * statement whose proof verifies; the spec's unsigned frame is still accepted and relayed, and
 * changes nothing at any receiver.
 */
export const EncryptionStatusFrameSchema = z.strictObject({
  type: z.literal('encryption_status'),
  roomId,
  encryptionEnabled: z.boolean(),
  timestamp: z.union([z.iso.datetime(), z.number()]),
  proof: VoiceStatusProofSchema.optional(),
});

/**
 * C→S `voice_call_start` (join the call of the sender's room) and `voice_call_end` (leave it).
 * The server names the participant with the name it joined the room with, not this field.
 */
export const VoiceCallFrameSchema = z.strictObject({
  type: z.enum(['voice_call_start', 'voice_call_end']),
  username: displayNameSchema({ label: 'username', max: 64 }),
});

/** A participant of a call: the socket's room `nodeId` (as in `user_list_update`). */
export const VoiceParticipantSchema = z.object({
  nodeId: z.string(),
  username: z.string(),
  /** ISO date of joining the call. */
  joinedAt: z.iso.datetime(),
});
export type VoiceParticipant = z.infer<typeof VoiceParticipantSchema>;

/** S→C `voice_call_start`: the room's call started; `nodeId`/`username` name who started it. */
export const VoiceCallStartedFrameSchema = z.object({
  type: z.literal('voice_call_start'),
  roomId: z.string(),
  username: z.string(),
  nodeId: z.string(),
});

/**
 * S→C `voice_call_participants`: the room's call after a change (to every member), or on joining
 * a room whose call is on. An empty list with `startedAt: null` means the call is over.
 */
export const VoiceCallParticipantsFrameSchema = z.object({
  type: z.literal('voice_call_participants'),
  roomId: z.string(),
  participants: z.array(VoiceParticipantSchema),
  startedAt: z.iso.datetime().nullable(),
});

/** S→C `voice_call_end`: the last participant (named) left; the room's call is over. */
export const VoiceCallEndedFrameSchema = z.object({
  type: z.literal('voice_call_end'),
  roomId: z.string(),
  username: z.string(),
  nodeId: z.string(),
});

/** S→C `webrtc_signaling`, delivered to `targetParticipant` only. */
export const WebrtcSignalingRelayFrameSchema = z.object({
  type: z.literal('webrtc_signaling'),
  roomId: z.string(),
  fromParticipant: z.string(),
  targetParticipant: z.string(),
  signalType: SignalTypeSchema,
  data: z.unknown(),
});

/** S→C `webrtc_offer` / `webrtc_answer` / `webrtc_ice_candidate`, delivered to `target` only. */
export const WebrtcDirectRelayFrameSchema = z.object({
  type: z.enum(['webrtc_offer', 'webrtc_answer', 'webrtc_ice_candidate']),
  from: z.string(),
  target: z.string(),
  data: z.unknown(),
});

/**
 * S→C `encryption_status`, delivered to the other participants of the call. `proof` is the
 * sender's, as it came (absent when the sender sent none); the receiver verifies it.
 */
export const EncryptionStatusRelayFrameSchema = z.object({
  type: z.literal('encryption_status'),
  roomId: z.string(),
  fromParticipant: z.string(),
  encryptionEnabled: z.boolean(),
  timestamp: z.union([z.iso.datetime(), z.number()]),
  proof: z.unknown().optional(),
});
