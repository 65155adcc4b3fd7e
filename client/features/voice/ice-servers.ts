/**
 * `GET /api/voice/ice-servers` (DESIGN.md "Voice"): the STUN/TURN servers of a call, for members
 * of the room only, proved as image uploads are by the room's grant in `x-room-access` (and the
 * key holder's session). Nothing is assumed when it fails: the call window shows why.
 */
import { z } from 'zod';
import { apiRequest, HttpError } from '../../lib/http.js';
import { getRoomAccessToken } from '../../lib/rooms/room-access.js';

const iceUrl = z
  .string()
  .max(512)
  .regex(/^(stun|stuns|turn|turns):\S+$/);

/** The answer's schema, as the browser parses it (the server's is shared/protocol/http/voice.ts). */
export const IceServersAnswerSchema = z.object({
  iceServers: z
    .array(
      z.object({
        urls: z.union([iceUrl, z.array(iceUrl).min(1).max(16)]),
        username: z.string().max(512).optional(),
        credential: z.string().max(512).optional(),
      }),
    )
    .max(32),
  ttl: z.number().int().positive().optional(),
});

/**
 * The servers, and with a TURN entry its credential's life in seconds (`ttl`): the call asks
 * again at half of it (voice-call.ts), as the credential lasts minutes.
 */
export async function fetchIceServers(
  roomId: string,
): Promise<{ iceServers: RTCIceServer[]; ttl?: number }> {
  const grant = getRoomAccessToken(roomId);
  try {
    const answer = await apiRequest('/api/voice/ice-servers', IceServersAnswerSchema, {
      headers: grant ? { 'x-room-access': grant } : {},
    });
    return answer.ttl === undefined
      ? { iceServers: answer.iceServers }
      : { iceServers: answer.iceServers, ttl: answer.ttl };
  } catch (error) {
    const reason =
      error instanceof HttpError
        ? (error.serverError ?? error.message)
        : 'no answer from the server';
    throw new Error(`Voice servers unavailable: ${reason}`, { cause: error });
  }
}
