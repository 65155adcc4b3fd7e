/**
 * Serves the built client and falls back to index.html for client routes. API paths and asset
 * requests that miss answer 404 `{error}` rather than the page.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Hashed assets never change; index.html must always be revalidated, or a browser keeps running
 * an old client against a new server for an hour; anything else may be kept an hour.
 */
export function cacheControlFor(filePath: string): string {
  if (filePath.includes(`${path.sep}assets${path.sep}`))
    return 'public, max-age=31536000, immutable';
  if (path.basename(filePath) === 'index.html') return 'no-cache';
  return 'public, max-age=3600';
}

export async function registerSpa(app: FastifyInstance, clientDist: string): Promise<void> {
  const hasClient = existsSync(path.join(clientDist, 'index.html'));
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: clientDist,
      wildcard: false,
      index: false,
      // The static plugin's own Cache-Control would overwrite the one set here (it is applied
      // after setHeaders), so it is off and every file gets its header from cacheControlFor.
      cacheControl: false,
      setHeaders: (res, filePath) => {
        res.setHeader('cache-control', cacheControlFor(filePath));
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
