/**
 * Who is calling: resolves `Authorization: Bearer` to a key holder's session or an admin console
 * session, and the preHandlers that require one or the other.
 */
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { TEXT } from '../../../shared/protocol/errors.js';
import { AppError } from '../../errors.js';
import { hasPermission } from './permissions.js';
import type { AuthService, KeyPrincipal } from './service.js';
import { bearerToken } from './tokens.js';

/** An admin console session opened with the admin password. */
export interface AdminPasswordPrincipal {
  kind: 'admin-session';
  permissions: { level: 'admin'; capabilities: readonly string[] };
}

export type Principal = KeyPrincipal | AdminPasswordPrincipal;

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

export interface Guards {
  /** Resolves the caller, or null. */
  resolve(request: FastifyRequest): Promise<Principal | null>;
  requireKey: preHandlerAsyncHookHandler;
  requireAdmin: preHandlerAsyncHookHandler;
}

export function createGuards(
  auth: AuthService,
  isAdminSession: (token: string) => Promise<boolean>,
): Guards {
  const resolve = async (request: FastifyRequest): Promise<Principal | null> => {
    const token = bearerToken(request.headers.authorization);
    if (!token) return null;
    const key = await auth.authenticate(token);
    if (key) return key;
    if (await isAdminSession(token)) {
      return { kind: 'admin-session', permissions: { level: 'admin', capabilities: ['admin'] } };
    }
    return null;
  };

  return {
    resolve,
    requireKey: async (request: FastifyRequest, _reply: FastifyReply) => {
      const principal = await resolve(request);
      if (!principal || principal.kind !== 'key')
        throw new AppError('UNAUTHORIZED', 401, TEXT.unauthorized);
      request.principal = principal;
    },
    requireAdmin: async (request: FastifyRequest, _reply: FastifyReply) => {
      const principal = await resolve(request);
      if (!principal)
        throw new AppError('UNAUTHORIZED', 401, TEXT.unauthorized, { adminAuth: true });
      if (!hasPermission(principal, 'admin'))
        throw new AppError('FORBIDDEN', 403, TEXT.adminRequired, { adminAuth: true });
      request.principal = principal;
    },
  };
}
