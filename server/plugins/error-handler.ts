/**
 * One error handler for the whole API: AppErrors answer with their status and message; schema
 * failures with 400 and a generic text naming the field (never its value); PostgreSQL or Redis
 * out of reach with 503, `Retry-After` and a text saying it is temporary (lib/unavailable.ts);
 * anything else with 500 and a generic text, logged with the request id and the error's name and
 * code only.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { TEXT } from '../../shared/protocol/errors.js';
import { isTextRuleIssue } from '../../shared/protocol/text.js';
import { isAppError } from '../errors.js';
import { errorForLog } from '../lib/log-error.js';
import { isDependencyUnavailable, RETRY_AFTER_SECONDS } from '../lib/unavailable.js';

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (isAppError(error)) {
      if (error.isAdminAuth) {
        return reply
          .code(error.status)
          .send({ success: false, message: error.message, error: error.message });
      }
      return reply.code(error.status).send({ error: error.message });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields = error.validation
        .map((issue) => issue.instancePath.replace(/^\//, '').replaceAll('/', '.'))
        .filter(Boolean);
      // The text rule's messages are fixed and name the field: they say what to change.
      const textRule = error.validation.find((issue) => isTextRuleIssue(issue.params));
      if (textRule)
        return reply.code(400).send({ error: `${TEXT.invalidRequest}: ${textRule.message}` });
      const where = fields.length > 0 ? `: ${[...new Set(fields)].join(', ')}` : '';
      return reply.code(400).send({ error: `${TEXT.invalidRequest}${where}` });
    }
    const status = error.statusCode ?? 500;
    if (status === 429) return reply.code(429).send({ error: TEXT.tooManyRequests });
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, body too large, wrong content type) have safe
      // messages that never contain the body itself.
      return reply.code(status).send({ error: error.message || TEXT.invalidRequest });
    }
    if (isDependencyUnavailable(error)) {
      // An outage, not a bug: the request did nothing, and the pool reconnects by itself.
      request.log.warn({ err: errorForLog(error) }, 'dependency unavailable');
      return reply
        .code(503)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .send({ error: TEXT.dependencyUnavailable });
    }
    // By name and code only: a database error's message and stack quote the query's parameters.
    request.log.error({ err: errorForLog(error) }, 'unhandled error');
    return reply.code(500).send({ error: TEXT.internalError });
  });
}
