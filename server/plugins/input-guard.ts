/**
 * NUL and other control characters in a request's URL, and NUL anywhere in a JSON body, are
 * refused with 400 before any handler runs (issue 15). PostgreSQL cannot store NUL in text (a NUL
 * in a room name used to end in a 500 and a database error in the log), and no route of the API
 * has a use for control characters in a path or a query. Rendered fields also refuse the other
 * control and bidi characters through their schemas (shared/protocol/text.ts).
 */
import type { FastifyInstance } from 'fastify';
import { TEXT } from '../../shared/protocol/errors.js';

/** The answer's text: names the rule, never quotes the input. */
export const CONTROL_CHARACTERS_REFUSED = `${TEXT.invalidRequest}: control characters are not allowed`;

/** A percent-encoded C0 control or DEL (%00–%1F, %7F); Node's parser refuses raw ones. */
const CONTROL_IN_URL = /%(?:[01][0-9a-f]|7f)/i;

/** True when `value` (a parsed JSON body) holds a NUL in any string, key or value. */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (typeof value !== 'object' || value === null || depth > 64) return false;
  // Bytes a route's own body reader made (server/app.ts, scanJsonBody) hold no text.
  if (ArrayBuffer.isView(value)) return false;
  if (Array.isArray(value)) {
    for (const item of value)
      if (typeof item !== 'number' && containsNul(item, depth + 1)) return true;
    return false;
  }
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000') || containsNul(item, depth + 1)) return true;
  }
  return false;
}

export function registerInputGuard(app: FastifyInstance): void {
  // Callback hooks, not async ones: every request passes here, and a promise per hook per request
  // is measurable on the cheapest routes.
  app.addHook('onRequest', (request, reply, done) => {
    if (CONTROL_IN_URL.test(request.url)) {
      reply.code(400).send({ error: CONTROL_CHARACTERS_REFUSED });
      return;
    }
    done();
  });
  app.addHook('preValidation', (request, reply, done) => {
    if (containsNul(request.body)) {
      reply.code(400).send({ error: CONTROL_CHARACTERS_REFUSED });
      return;
    }
    done();
  });
}
