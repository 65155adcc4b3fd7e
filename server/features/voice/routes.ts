/**
 * `GET /api/voice/ice-servers` (DESIGN.md "Voice"): the ICE configuration of a call. Only for a
 * socket in a room, proved as for uploads by its room grant in `x-room-access`: TURN credentials
 * let their holder relay traffic through the operator's TURN server, so they go to members only,
 * each named after the socket and valid for TURN_TTL seconds.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DEFAULT_STUN_SERVERS } from '../../../shared/constants.js';
import { ErrorBodySchema } from '../../../shared/protocol/http/error-body.js';
import {
  IceServersResponseSchema,
  type IceServer,
  type IceServersResponse,
} from '../../../shared/protocol/http/voice.js';
import { AppError } from '../../errors.js';
import { VOICE_TEXT } from './service.js';
import { issueTurnCredential } from './turn-credentials.js';

export interface VoiceRouteDeps {
  /** `ICE_SERVERS`, or null for the public STUN defaults. */
  iceServers: IceServer[] | null;
  turn: { urls: string[]; secret: string; ttlSeconds: number } | null;
  /** The room session behind a room grant (room and socket), while that socket is in the room. */
  roomSessionOf: (grant: string) => Promise<{ roomId: string; nodeId: string } | null>;
  now: () => number;
  requestsPerMinute: number;
}

const HeadersSchema = z.looseObject({ 'x-room-access': z.string().min(1).max(200).optional() });

/** The answer for the socket `nodeId`: STUN servers, and a TURN entry with a fresh credential. */
export function iceServersFor(deps: VoiceRouteDeps, nodeId: string): IceServersResponse {
  const iceServers: IceServer[] = (deps.iceServers ?? DEFAULT_STUN_SERVERS).map((server) => ({
    ...server,
    urls: Array.isArray(server.urls) ? [...server.urls] : server.urls,
  }));
  if (!deps.turn) return { iceServers };
  const credential = issueTurnCredential(
    deps.turn.secret,
    nodeId,
    deps.turn.ttlSeconds,
    deps.now(),
  );
  iceServers.push({
    urls: [...deps.turn.urls],
    username: credential.username,
    credential: credential.credential,
  });
  return { iceServers, ttl: credential.ttlSeconds };
}

export function voiceRoutes(deps: VoiceRouteDeps): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/api/voice/ice-servers',
      {
        config: { rateLimit: { max: deps.requestsPerMinute, timeWindow: '1 minute' } },
        schema: {
          tags: ['voice'],
          summary: 'ICE servers for a call: STUN, and TURN with a time-limited credential',
          headers: HeadersSchema,
          response: { 200: IceServersResponseSchema, 403: ErrorBodySchema, 429: ErrorBodySchema },
        },
      },
      async (request, reply) => {
        const grant = request.headers['x-room-access'];
        const session = typeof grant === 'string' ? await deps.roomSessionOf(grant) : null;
        if (!session) throw new AppError('NOT_MEMBER', 403, VOICE_TEXT.notMember);
        // A credential is personal and short-lived: no cache may keep or share it.
        void reply.header('cache-control', 'no-store');
        return iceServersFor(deps, session.nodeId);
      },
    );
  };
}
