/**
 * Serves the built client and falls back to index.html for client routes. API paths and asset
 * requests that miss answer 404 `{error}` rather than the page.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

export async function registerSpa(app: FastifyInstance, clientDist: string): Promise<void> {
  const hasClient = existsSync(path.join(clientDist, 'index.html'));
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: clientDist,
      wildcard: false,
      index: false,
      maxAge: '1h',
      setHeaders: (res, filePath) => {
        // Hashed assets never change; index.html must always be re-fetched.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.setHeader('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isPageRequest =
      request.method === 'GET' &&
      !pathname.startsWith('/api/') &&
      !pathname.startsWith('/assets/') &&
      !/\.[a-z0-9]+$/i.test(pathname);
    if (isPageRequest && hasClient) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    if (isPageRequest) {
      return reply
        .code(503)
        .type('text/plain')
        .send('The client is not built yet: run `npm run build` (npm start does it for you).');
    }
    return reply.code(404).send({ error: 'Not found' });
  });
}
