/** Voice signalling frames, relayed by the server between room members (spec 000 §7). */
import { z } from 'zod';
import { displayNameSchema } from '../text.js';

const roomId = z.string().min(1).max(80);
const nodeId = z.string().min(1).max(80);
/** SDP or ICE payloads are opaque to the server but bounded. */
const signalData = z.unknown().refine((value) => JSON.stringify(value ?? null).length <= 16_000, {
  message: 'Signal payload too large',
});

export const WebrtcSignalingFrameSchema = z.strictObject({
  type: z.literal('webrtc_signaling'),
  roomId,
  targetParticipant: nodeId,
  signalType: z.enum(['offer', 'answer', 'ice_candidate']),
  data: signalData,
});
export const WebrtcDirectFrameSchema = z.strictObject({
  type: z.enum(['webrtc_offer', 'webrtc_answer', 'webrtc_ice_candidate']),
  target: nodeId,
  data: signalData,
});
export const EncryptionStatusFrameSchema = z.strictObject({
  type: z.literal('encryption_status'),
  roomId,
  encryptionEnabled: z.boolean(),
  timestamp: z.union([z.iso.datetime(), z.number()]),
});
export const VoiceCallFrameSchema = z.strictObject({
  type: z.enum(['voice_call_start', 'voice_call_end']),
  username: displayNameSchema({ label: 'username', max: 64 }),
});
