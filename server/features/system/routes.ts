/** Service-level routes: ping and the OpenAPI document. */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PingSchema } from '../../../shared/protocol/http/system.js';

export const systemRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/ping',
    {
      schema: {
        tags: ['system'],
        summary: 'Answers 200 as soon as the server can serve; clients use it to measure latency',
        response: { 200: PingSchema },
      },
    },
    () => ({ ok: true as const, time: new Date().toISOString() }),
  );

  app.get('/api/openapi.json', { schema: { hide: true } }, () => fastify.swagger());
};
