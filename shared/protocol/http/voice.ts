/** Voice HTTP schemas (DESIGN.md "Voice"): the ICE configuration of a call. */
import { z } from 'zod';

const iceUrl = z
  .string()
  .max(512)
  .regex(/^(stun|stuns|turn|turns):[^\s]+$/, 'must be a stun:, stuns:, turn: or turns: URL');

/** One ICE server as `RTCIceServer` takes it. */
export const IceServerSchema = z.strictObject({
  urls: z.union([iceUrl, z.array(iceUrl).min(1).max(16)]),
  username: z.string().max(512).optional(),
  credential: z.string().max(512).optional(),
});
export type IceServer = z.infer<typeof IceServerSchema>;

/** `ICE_SERVERS`: a JSON array of ICE servers (checked at start-up). */
export const IceServerListSchema = z.array(IceServerSchema).min(1).max(32);

/** `GET /api/voice/ice-servers`. `ttl` (seconds) is how long the TURN credential lasts. */
export const IceServersResponseSchema = z.object({
  iceServers: z.array(IceServerSchema),
  ttl: z.number().int().positive().optional(),
});
export type IceServersResponse = z.infer<typeof IceServersResponseSchema>;
