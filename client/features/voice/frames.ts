/**
 * What travels inside a relayed `webrtc_signaling` frame's `data`, parsed before it reaches the
 * peer connection: an offer's or answer's SDP, or one ICE candidate. The server treats `data` as
 * opaque (bounded to 16 000 characters); the browser checks its shape.
 */
import { z } from 'zod';

/** SDP of an offer or answer, as carried in `data`. */
export const SessionDescriptionSchema = z.object({
  type: z.enum(['offer', 'answer']),
  sdp: z.string().max(15_000),
});
/** An ICE candidate, as carried in `data` (RTCIceCandidateInit). */
export const IceCandidateSchema = z.object({
  candidate: z.string().max(2_000),
  sdpMid: z.string().max(64).nullable().optional(),
  sdpMLineIndex: z.number().int().min(0).max(64).nullable().optional(),
  usernameFragment: z.string().max(256).nullable().optional(),
});
