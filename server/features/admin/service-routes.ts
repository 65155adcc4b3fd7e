/** Emergency shutdown, restore, status and the audit log over HTTP (spec 001 §7). */
import type { FastifyPluginAsync, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { TEXT } from '../../../shared/protocol/errors.js';
import { ErrorBodySchema } from '../../../shared/protocol/http/error-body.js';
import {
  AuditLogSchema,
  AuditQuerySchema,
  EmergencyShutdownRequestSchema,
  EmergencyShutdownResponseSchema,
  RestoreServiceRequestSchema,
  RestoreServiceResponseSchema,
  PublicServiceStatusSchema,
  ServiceStatusSchema,
} from '../../../shared/protocol/http/admin.js';
import { AppError } from '../../errors.js';
import type { AuditStore } from './audit.js';
import type { AdminCredentials } from './credentials.js';
import { SERVICE_TEXT, type AdminOperations } from './operations.js';
import type { ServiceStateHolder } from './service-state.js';
import { passwordGuesser } from '../../lib/visitor.js';

export interface ServiceRouteDeps {
  operations: AdminOperations;
  credentials: AdminCredentials;
  audit: AuditStore;
  state: ServiceStateHolder;
  connectionCount: () => number;
  requireAdmin: preHandlerAsyncHookHandler;
  /** The admin actor behind the request's bearer token, or null. */
  bearerActor: (request: FastifyRequest) => Promise<string | null>;
}

export function serviceRoutes(deps: ServiceRouteDeps): FastifyPluginAsync {
  /** The spec's calls carry the admin password; an admin bearer token is accepted too. */
  const actorOf = async (
    request: FastifyRequest,
    password: string | undefined,
  ): Promise<string> => {
    const bearer = await deps.bearerActor(request);
    if (bearer) return bearer;
    if (!password)
      throw new AppError('UNAUTHORIZED', 401, TEXT.adminPasswordRequired, { adminAuth: true });
    // The same lockout as /api/admin/authenticate; failures are counted there, per window.
    await deps.credentials.checkPassword(password, passwordGuesser(request));
    return 'admin-password';
  };

  return async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    app.post(
      '/api/admin/emergency-shutdown',
      {
        schema: {
          tags: ['admin'],
          summary:
            'Emergency shutdown: every socket is told and closed; APIs answer 503 until restore',
          body: EmergencyShutdownRequestSchema,
          response: {
            200: EmergencyShutdownResponseSchema,
            401: ErrorBodySchema,
            409: ErrorBodySchema,
            429: ErrorBodySchema,
          },
        },
      },
      async (request) => {
        const actor = await actorOf(request, request.body.password);
        const outcome = await deps.operations.shutdown(request.body.reason, actor);
        if (!outcome.changed) {
          return {
            success: true as const,
            message: SERVICE_TEXT.alreadyShutDown,
            usersDisconnected: 0,
            alreadyInEffect: true,
          };
        }
        request.log.warn({ usersDisconnected: outcome.usersDisconnected }, 'emergency shutdown');
        return {
          success: true as const,
          message: SERVICE_TEXT.shutdownDone,
          usersDisconnected: outcome.usersDisconnected,
          alreadyInEffect: false,
        };
      },
    );

    app.post(
      '/api/admin/restore-service',
      {
        schema: {
          tags: ['admin'],
          summary: 'End an emergency shutdown; connected clients get service_restored',
          body: RestoreServiceRequestSchema,
          response: {
            200: RestoreServiceResponseSchema,
            401: ErrorBodySchema,
            409: ErrorBodySchema,
            429: ErrorBodySchema,
          },
        },
      },
      async (request) => {
        const actor = await actorOf(request, request.body.password);
        if (!(await deps.operations.restore(actor))) {
          return {
            success: true as const,
            message: SERVICE_TEXT.alreadyOperational,
            alreadyOperational: true,
          };
        }
        request.log.warn('service restored');
        return {
          success: true as const,
          message: SERVICE_TEXT.restored,
          alreadyOperational: false,
        };
      },
    );

    app.get(
      '/api/admin/status',
      {
        preHandler: deps.requireAdmin,
        schema: {
          tags: ['admin'],
          summary: 'Service state and open connections (admin session or admin key)',
          response: { 200: ServiceStatusSchema, 401: ErrorBodySchema, 403: ErrorBodySchema },
        },
      },
      () => ({ ...deps.state.current, connections: deps.connectionCount() }),
    );

    // What the notice pages and anyone may know: the state every socket is told anyway.
    app.get(
      PUBLIC_STATUS_PATH,
      {
        schema: {
          tags: ['system'],
          summary: 'Service state: operational or emergency (public; answers during a shutdown)',
          response: { 200: PublicServiceStatusSchema },
        },
      },
      () => deps.state.current,
    );

    app.get(
      '/api/admin/audit',
      {
        preHandler: deps.requireAdmin,
        schema: {
          tags: ['admin'],
          summary: 'The audit log, newest first',
          querystring: AuditQuerySchema,
          response: { 200: AuditLogSchema, 401: ErrorBodySchema, 403: ErrorBodySchema },
        },
      },
      async (request) => ({ entries: await deps.audit.list(request.query.limit) }),
    );
  };
}

/** The 503 answer of every API but ping, the public status, admin and key registration while the service is shut down. */
export function isBlockedDuringShutdown(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  if (!path.startsWith('/api/')) return false;
  return !(
    path === '/api/ping' ||
    path === PUBLIC_STATUS_PATH ||
    path.startsWith('/api/admin/') ||
    // Registering a key is an admin action (spec 001 §7): it works during a shutdown too.
    path === '/api/keys/register' ||
    // The page's check of the server's identity and of its stored session: without them a
    // page loaded during a shutdown could not even ask for the service state, and a reload
    // would sign a key holder out (the notice pages offer restore to admin key holders).
    path === '/api/certificate-info' ||
    path === '/api/auth/session'
  );
}

/** The public service state (the admin route adds the connection count). */
const PUBLIC_STATUS_PATH = '/api/service-status';
