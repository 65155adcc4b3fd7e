/** Key-exchange helpers (spec 000 §7). Certificate info is the privacy feature's. */
import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PBKDF2_ITERATIONS } from '../../../shared/constants.js';
import { ErrorBodySchema } from '../../../shared/protocol/http/error-body.js';
import {
  EntropyRequestSchema,
  EntropyResponseSchema,
  PfsExchangeRequestSchema,
  PfsExchangeResponseSchema,
} from '../../../shared/protocol/http/security.js';
import type { PfsKeyRing } from './pfs-keys.js';

export function securityRoutes(deps: { pfs: PfsKeyRing }): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    app.post(
      '/api/key-exchange/entropy',
      {
        schema: {
          tags: ['security'],
          summary: 'Server entropy for the browser to mix into its own (never to rely on)',
          body: EntropyRequestSchema,
          response: { 200: EntropyResponseSchema },
        },
      },
      (request) => {
        const wanted =
          typeof request.body.requestEntropy === 'number' ? request.body.requestEntropy : 32;
        return {
          serverEntropy: randomBytes(wanted).toString('hex'),
          salt: randomBytes(16).toString('hex'),
          iterations: PBKDF2_ITERATIONS,
        };
      },
    );

    app.post(
      '/api/pfs/exchange',
      {
        schema: {
          tags: ['security'],
          summary:
            'ECDH P-256 with the server key of the current 30-minute period, with key confirmation',
          body: PfsExchangeRequestSchema,
          response: { 200: PfsExchangeResponseSchema, 400: ErrorBodySchema },
        },
      },
      (request) => deps.pfs.exchange(request.body.clientPublicKey, request.body.clientKeyId),
    );
  };
}
