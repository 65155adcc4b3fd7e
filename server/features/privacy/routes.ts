/** `GET /api/privacy/check` and `GET /api/certificate-info` (spec 000 §7). */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBodySchema } from '../../../shared/protocol/http/error-body.js';
import {
  CertificateInfoQuerySchema,
  CertificateInfoSchema,
  ConnectionPrivacySchema,
} from '../../../shared/protocol/http/privacy.js';
import type { ServerIdentity } from './server-identity.js';
import type { PrivacyService } from './service.js';
import { onionCircuitOf } from '../../lib/onion-socket.js';

/** Privacy checks one address may ask for per minute (each may cost an outside lookup). */
export const PRIVACY_CHECKS_PER_MINUTE = 30;

export function privacyRoutes(deps: {
  privacy: PrivacyService;
  identity: ServerIdentity;
}): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    app.get(
      '/api/privacy/check',
      {
        config: { rateLimit: { max: PRIVACY_CHECKS_PER_MINUTE, timeWindow: '1 minute' } },
        schema: {
          tags: ['privacy'],
          summary:
            "The caller's connection privacy (VPN, proxy, Tor, hosting), looked up by the server",
          response: { 200: ConnectionPrivacySchema, 429: ErrorBodySchema },
        },
      },
      async (request, reply) => {
        // The answer is about this caller only and changes with their network: never cached by
        // anything between.
        void reply.header('cache-control', 'no-store');
        return deps.privacy.check({
          ip: request.ip,
          hostname: request.hostname,
          remoteAddress: request.socket.remoteAddress,
          viaOnionEntrance: onionCircuitOf(request.raw.socket) !== null,
        });
      },
    );

    app.get(
      '/api/certificate-info',
      {
        schema: {
          tags: ['privacy'],
          summary:
            'Fingerprint to pin (TLS certificate, else the server identity key), signed over a challenge',
          querystring: CertificateInfoQuerySchema,
          response: { 200: CertificateInfoSchema, 400: ErrorBodySchema },
        },
      },
      (request, reply) => {
        void reply.header('cache-control', 'no-store');
        return deps.identity.describe(request.query.challenge ?? null);
      },
    );
  };
}
