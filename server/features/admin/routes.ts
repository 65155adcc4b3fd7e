/** Admin console authentication (spec 001 §7). */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBodySchema } from '../../../shared/protocol/http/error-body.js';
import {
  AdminAuthenticateRequestSchema,
  AdminAuthenticateResponseSchema,
} from '../../../shared/protocol/http/auth.js';
import type { AuditStore } from './audit.js';
import { ADMIN_TEXT, type AdminCredentials } from './credentials.js';
import { passwordGuesser } from '../../lib/visitor.js';

export function adminRoutes(credentials: AdminCredentials, audit: AuditStore): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.post(
      '/api/admin/authenticate',
      {
        schema: {
          tags: ['admin'],
          summary:
            'Open a ten-minute admin session with the admin password (lockout: 3 failures, 5 minutes)',
          body: AdminAuthenticateRequestSchema,
          response: {
            200: AdminAuthenticateResponseSchema,
            401: ErrorBodySchema,
            409: ErrorBodySchema,
            429: ErrorBodySchema,
          },
        },
      },
      async (request) => {
        // Failures are counted per window inside checkPassword (no row per attempt, no address).
        const session = await credentials.authenticate(
          request.body.password,
          passwordGuesser(request),
        );
        await audit.record({ actor: 'admin-password', action: 'admin.login' });
        request.log.info('admin authenticated');
        return {
          success: true as const,
          message: ADMIN_TEXT.authenticated,
          sessionToken: session.sessionToken,
          expiresAt: session.expiresAt.toISOString(),
        };
      },
    );
  };
}
