/** Service-level routes: ping and the OpenAPI document. */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PingSchema } from '../../../shared/protocol/http/system.js';

export interface SystemRoutesOptions {
  /** True while Redis is away or the processes are not all back yet (redis/redis-health.ts). */
  isDegraded: () => boolean;
}

export const systemRoutes: FastifyPluginAsync<SystemRoutesOptions> = async (fastify, options) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/ping',
    {
      schema: {
        tags: ['system'],
        summary:
          'Answers 200 as soon as the server can serve; clients use it to measure latency. `degraded` is true while Redis is away (room messages are refused meanwhile).',
        response: { 200: PingSchema },
      },
      // Counted like every route, but answered even while the counters (in Redis) are away:
      // ping is how an operator sees that the process is up and degraded.
      config: { rateLimit: { skipOnError: true } },
    },
    () => ({
      ok: true as const,
      time: new Date().toISOString(),
      degraded: options.isDegraded(),
    }),
  );

  app.get('/api/openapi.json', { schema: { hide: true } }, () => fastify.swagger());
};
