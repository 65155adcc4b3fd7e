/**
 * Server → client voice frames (spec 000 §7), as the browser parses them: the call's
 * participants, its start and end, WebRTC signalling relayed to its one target, and a
 * participant's frame-encryption announcement. The client → server side is voice.ts.
 */
import { z } from 'zod';

const roomId = z.string().min(1).max(80);
const nodeId = z.string().min(1).max(80);
const username = z.string().min(1).max(64);
/** An ISO date-time or epoch milliseconds. */
const instant = z.union([z.string().min(1).max(40), z.number()]);

export const VoiceParticipantSchema = z.object({ nodeId, username, joinedAt: instant });
export type VoiceParticipant = z.infer<typeof VoiceParticipantSchema>;

export const VoiceCallParticipantsFrameSchema = z.object({
  type: z.literal('voice_call_participants'),
  roomId,
  participants: z.array(VoiceParticipantSchema).max(64),
  startedAt: instant.nullable().optional(),
});
export const VoiceCallEventFrameSchema = z.object({
  type: z.enum(['voice_call_start', 'voice_call_end']),
  roomId,
  username,
  nodeId,
});
export const WebrtcSignalRelayFrameSchema = z.object({
  type: z.literal('webrtc_signaling'),
  roomId,
  fromParticipant: nodeId,
  targetParticipant: nodeId,
  signalType: z.enum(['offer', 'answer', 'ice_candidate']),
  data: z.unknown(),
});
export const EncryptionStatusRelayFrameSchema = z.object({
  type: z.literal('encryption_status'),
  roomId,
  fromParticipant: nodeId,
  encryptionEnabled: z.boolean(),
  timestamp: instant,
});
