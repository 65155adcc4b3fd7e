/** Key registration, login, sessions and key administration (spec 000 §7, spec 001 §7). */
import type {} from '@fastify/multipart';
import type {
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
  preHandlerAsyncHookHandler,
  preValidationHookHandler,
} from 'fastify';
import type { FastifyRouteSchemaDef, FastifyValidationResult } from 'fastify/types/schema.js';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  KEY_FILE_MAX_CHARS,
  KeyPublicPartSchema,
  type KeyPublicPart,
} from '../../../shared/crypto/key-file-schema.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import { ErrorBodySchema } from '../../../shared/protocol/http/error-body.js';
import {
  AdminKeyListSchema,
  ChallengeRequestSchema,
  ChallengeResponseSchema,
  KeyIdParamsSchema,
  LogoutResponseSchema,
  RegisterKeyResponseSchema,
  RegisteredUsersSchema,
  RevokeKeyResponseSchema,
  SessionResponseSchema,
  VerifyResponseSchema,
} from '../../../shared/protocol/http/auth.js';
import {
  VerifyRequestBytesSchema,
  scanVerifyRequest,
} from '../../../shared/protocol/http/verify-body.js';
import { AppError } from '../../errors.js';
import type { RateLimiter } from '../../lib/rate-limiter.js';
import type { TurnQueue } from '../../lib/turns.js';
import { visitorOfRequest } from '../../lib/visitor.js';
import type { Guards, Principal } from './guards.js';
import { loginLimitKey } from './frames.js';
import type { LoginAdmission } from './login-admission.js';
import type { AuthService } from './service.js';
import { bearerToken } from './tokens.js';

export interface AuthRouteOptions {
  /** Per-address limit on challenge and verify calls, per minute. */
  loginRatePerMinute: number;
  /** The bounded queue of verifications in front of the verify pool. */
  admission: LoginAdmission;
  /**
   * Challenges and verifications per visitor and minute, shared with the login frames
   * (frames.ts): one allowance per visitor whichever way it logs in.
   */
  limiter: RateLimiter;
  /** One login starts per event-loop turn, over either way (shared with the login frames). */
  turns: TurnQueue;
  /** Records an admin action (key registration, revocation) in the audit log. */
  onAdminAction: (
    actor: string,
    action: 'key.register' | 'key.revoke',
    detail: Record<string, unknown>,
  ) => Promise<void>;
}

/** How an admin appears in the audit log. */
export function actorName(principal: Principal | null): string {
  if (!principal) return 'unknown';
  return principal.kind === 'key'
    ? `key:${principal.keyId}(${principal.username})`
    : 'admin-session';
}

const PRIVATE_FIELDS = ['dilithiumPrivateKey', 'ecdsaPrivateKey', 'encryptionPrivateKey'] as const;

/** Reads the key object from a JSON body or a multipart `keyFile` field. */
async function readKeyBody(request: FastifyRequest): Promise<unknown> {
  if (!request.isMultipart()) return request.body;
  const file = await request.file({ limits: { fileSize: KEY_FILE_MAX_CHARS, files: 1 } });
  if (!file || file.fieldname !== 'keyFile')
    throw new AppError('KEY_PARSE', 400, TEXT.keyParseFailed);
  const buffer = await file.toBuffer();
  if (file.file.truncated) throw new AppError('KEY_PARSE', 400, TEXT.keyParseFailed);
  try {
    return JSON.parse(buffer.toString('utf8')) as unknown;
  } catch (error) {
    throw new AppError('KEY_PARSE', 400, TEXT.keyParseFailed, { cause: error });
  }
}

/** Refuses private keys outright, then parses the public part. */
function parseRegistration(body: unknown): KeyPublicPart {
  if (typeof body === 'object' && body !== null && PRIVATE_FIELDS.some((field) => field in body)) {
    throw new AppError('PRIVATE_KEY_REFUSED', 400, TEXT.privateKeysRefused);
  }
  const parsed = KeyPublicPartSchema.safeParse(body);
  if (!parsed.success) throw new AppError('KEY_PARSE', 400, TEXT.keyParseFailed);
  return parsed.data;
}

/** Bodies read by `scanVerifyRequest`: already what the verify route's schema would make of them. */
const scannedBodies = new WeakSet<object>();

function scanVerifyBody(text: string): object | null {
  const body = scanVerifyRequest(text);
  if (body) scannedBodies.add(body);
  return body;
}

/**
 * The zod validator, except for a body the scanner has read. Fastify types a route's compiler by
 * the route's whole schema; what it passes at run time is the part's zod schema (here the body's).
 */
function verifyBodyValidator<T>(route: FastifyRouteSchemaDef<T>): FastifyValidationResult {
  const validate = validatorCompiler(route as unknown as Parameters<typeof validatorCompiler>[0]);
  return (data) => (isScannedBody(data) ? { value: data } : validate(data));
}

const isScannedBody = (data: unknown): boolean =>
  typeof data === 'object' && data !== null && scannedBodies.has(data);

/**
 * The login routes' answers, built by the service in exactly their schemas' shape, are written with
 * JSON.stringify: checking them against the schema again cost a few µs of every login (issue 22).
 */
const plainJson = () => (data: unknown) => JSON.stringify(data);

export function authRoutes(
  service: AuthService,
  guards: Guards,
  options: AuthRouteOptions,
): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const loginLimit = { rateLimit: { max: options.loginRatePerMinute, timeWindow: '1 minute' } };
    // Logins arrive in bursts (a room reconnecting, a shift starting). Each one's validation and
    // handler start in its own event-loop turn, so chat frames get through between them.
    const inTurn: preValidationHookHandler = (_request, _reply, done) => {
      void options.turns.run(() => done());
    };
    const busy = (reply: FastifyReply, retryAfterSeconds: number) =>
      reply
        .code(503)
        .header('retry-after', String(retryAfterSeconds))
        .send({ error: TEXT.loginBusy });
    // The count the login frames share (the route's own limit above answers with its headers).
    const countLogin =
      (step: 'challenge' | 'verify'): preHandlerAsyncHookHandler =>
      async (request, reply) => {
        if (await options.limiter.hit(loginLimitKey(visitorOfRequest(request), step))) return;
        return reply.code(429).send({ error: TEXT.tooManyRequests });
      };
    // Before the body is read: a verification past the queue's bound costs the event loop next
    // to nothing, and the client waits Retry-After seconds (issue 22). Nothing is taken yet.
    const refuseWhenBusy = async (request: FastifyRequest, reply: FastifyReply) => {
      const retryAfterSeconds = options.admission.refusal(visitorOfRequest(request));
      return retryAfterSeconds === null ? undefined : busy(reply, retryAfterSeconds);
    };
    // Once the whole body has arrived, the verification takes its place: a client that sends
    // headers and then part of a body, or nothing, holds no place, however long it stays (the
    // server's request deadline ends it: server/plugins/http-timeouts.ts).
    const admitVerification = async (request: FastifyRequest, reply: FastifyReply) => {
      const admission = options.admission.admit(visitorOfRequest(request));
      if (!admission.admitted) return busy(reply, admission.retryAfterSeconds);
      // 'close' comes once the answer has gone out or the client went away, whichever happens.
      reply.raw.once('close', admission.ticket.release);
      return undefined;
    };

    app.post(
      '/api/keys/register',
      {
        preHandler: guards.requireAdmin,
        bodyLimit: KEY_FILE_MAX_CHARS,
        schema: {
          tags: ['keys'],
          summary:
            'Register the public part of a key (admin). JSON key object or multipart field keyFile.',
          response: {
            200: RegisterKeyResponseSchema,
            400: ErrorBodySchema,
            401: ErrorBodySchema,
            403: ErrorBodySchema,
            409: ErrorBodySchema,
          },
        },
      },
      async (request) => {
        const key = parseRegistration(await readKeyBody(request));
        const registered = await service.registerKey(key);
        await options.onAdminAction(actorName(request.principal), 'key.register', {
          keyId: registered.keyId,
          username: registered.username,
          level: registered.level,
        });
        request.log.info({ keyId: registered.keyId, level: registered.level }, 'key registered');
        return { success: true as const, ...registered };
      },
    );

    app.post(
      '/api/auth/challenge',
      {
        config: loginLimit,
        preValidation: inTurn,
        preHandler: countLogin('challenge'),
        serializerCompiler: plainJson,
        schema: {
          tags: ['auth'],
          summary: 'A single-use login challenge, valid two minutes',
          body: ChallengeRequestSchema,
          response: { 200: ChallengeResponseSchema, 401: ErrorBodySchema, 429: ErrorBodySchema },
        },
      },
      (request) => service.issueChallenge(request.body.keyId),
    );

    app.post(
      '/api/auth/verify',
      {
        // The body's common form is read straight into bytes (shared/protocol/http/verify-body.ts);
        // any other goes through JSON.parse and the schema, which word the errors.
        config: { ...loginLimit, scanJsonBody: scanVerifyBody },
        onRequest: refuseWhenBusy,
        preValidation: [admitVerification, inTurn],
        preHandler: countLogin('verify'),
        validatorCompiler: verifyBodyValidator,
        serializerCompiler: plainJson,
        schema: {
          tags: ['auth'],
          summary:
            'Check both challenge signatures against the registered keys; opens a session. 503 with Retry-After when too many logins wait.',
          body: VerifyRequestBytesSchema,
          response: {
            200: VerifyResponseSchema,
            401: ErrorBodySchema,
            429: ErrorBodySchema,
            503: ErrorBodySchema,
          },
        },
      },
      async (request) => {
        const result = await service.verify(request.body, visitorOfRequest(request));
        request.log.info({ keyId: result.user.keyId }, 'key holder logged in');
        return result;
      },
    );

    app.get(
      '/api/auth/session',
      {
        schema: {
          tags: ['auth'],
          summary: 'Whether the bearer session is valid, and its user',
          response: { 200: SessionResponseSchema },
        },
      },
      async (request) => {
        const token = bearerToken(request.headers.authorization);
        const principal = token ? await service.authenticate(token) : null;
        if (!principal) return { valid: false, user: null };
        const { kind: _kind, tokenHash: _hash, ...user } = principal;
        return { valid: true, user };
      },
    );

    app.post(
      '/api/auth/logout',
      {
        schema: {
          tags: ['auth'],
          summary: 'End the bearer session',
          response: { 200: LogoutResponseSchema },
        },
      },
      async (request) => {
        const token = bearerToken(request.headers.authorization);
        if (token) await service.logout(token);
        return { success: true as const };
      },
    );

    app.get(
      '/api/auth/registered-users',
      {
        preHandler: guards.requireKey,
        schema: {
          tags: ['auth'],
          summary: 'Key holders one can write to',
          response: { 200: RegisteredUsersSchema, 401: ErrorBodySchema },
        },
      },
      () => service.registeredUsers(),
    );

    app.get(
      '/api/admin/keys',
      {
        preHandler: guards.requireAdmin,
        schema: {
          tags: ['admin'],
          summary: 'Every registered key',
          response: { 200: AdminKeyListSchema, 401: ErrorBodySchema, 403: ErrorBodySchema },
        },
      },
      () => service.listKeys(),
    );

    app.delete(
      '/api/admin/keys/:keyId',
      {
        preHandler: guards.requireAdmin,
        schema: {
          tags: ['admin'],
          summary: 'Revoke a key: its sessions end and its sockets close at once',
          params: KeyIdParamsSchema,
          response: {
            200: RevokeKeyResponseSchema,
            401: ErrorBodySchema,
            403: ErrorBodySchema,
            404: ErrorBodySchema,
          },
        },
      },
      async (request) => {
        const sessionsEnded = await service.revokeKey(request.params.keyId);
        await options.onAdminAction(actorName(request.principal), 'key.revoke', {
          keyId: request.params.keyId,
        });
        request.log.info({ keyId: request.params.keyId }, 'key revoked');
        return { success: true as const, keyId: request.params.keyId, sessionsEnded };
      },
    );
  };
}
