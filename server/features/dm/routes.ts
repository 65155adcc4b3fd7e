/** Direct-message HTTP routes (spec 001 §7); every one needs a key holder's bearer session. */
import type { FastifyPluginAsync, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBodySchema } from '../../../shared/protocol/http/error-body.js';
import {
  CreateDmThreadRequestSchema,
  CreateDmThreadResponseSchema,
  DeleteDmThreadResponseSchema,
  DirectMessageListSchema,
  DirectMessageSchema,
  DmKeyParamsSchema,
  DmRecipientKeySchema,
  DmThreadListSchema,
  DmThreadParamsSchema,
  SendDirectMessageRequestSchema,
} from '../../../shared/protocol/http/dm.js';
import type { DmService } from './service.js';

export interface DmRouteDeps {
  service: DmService;
  requireKey: preHandlerAsyncHookHandler;
}

const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
};

export function dmRoutes({ service, requireKey }: DmRouteDeps): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const caller = (principal: unknown) => (principal as { keyId: string }).keyId;

    app.addHook('preHandler', requireKey);

    app.get(
      '/api/dm/keys/:keyId',
      {
        schema: {
          tags: ['dm'],
          summary:
            "A key holder's registered identity keys and encryption key (null: none registered)",
          params: DmKeyParamsSchema,
          response: { 200: DmRecipientKeySchema, ...errors },
        },
      },
      (request) => service.recipientKey(request.params.keyId),
    );

    app.get(
      '/api/dm/threads',
      {
        schema: {
          tags: ['dm'],
          summary: "The caller's conversations",
          response: { 200: DmThreadListSchema, ...errors },
        },
      },
      (request) => service.listThreads(caller(request.principal)),
    );

    app.post(
      '/api/dm/threads',
      {
        schema: {
          tags: ['dm'],
          summary:
            'Open a conversation with a thread key wrapped and signed in the creator’s browser',
          body: CreateDmThreadRequestSchema,
          response: { 200: CreateDmThreadResponseSchema, ...errors },
        },
      },
      async (request) => {
        const thread = await service.createThread(caller(request.principal), request.body);
        return { id: thread.id, encryptionKey: thread.encryptionKey, mode: thread.mode, thread };
      },
    );

    app.get(
      '/api/dm/threads/:id/messages',
      {
        schema: {
          tags: ['dm'],
          summary: "A conversation's unexpired messages (ciphertext)",
          params: DmThreadParamsSchema,
          response: { 200: DirectMessageListSchema, ...errors },
        },
      },
      (request) => service.messages(caller(request.principal), request.params.id),
    );

    app.post(
      '/api/dm/threads/:id/messages',
      {
        schema: {
          tags: ['dm'],
          summary: 'Store an encrypted message until its expiry',
          params: DmThreadParamsSchema,
          body: SendDirectMessageRequestSchema,
          response: { 200: DirectMessageSchema, ...errors },
        },
      },
      (request) => service.send(caller(request.principal), request.params.id, request.body),
    );

    app.delete(
      '/api/dm/threads/:id',
      {
        schema: {
          tags: ['dm'],
          summary: 'Destroy a conversation (either participant); the other is told at once',
          params: DmThreadParamsSchema,
          response: { 200: DeleteDmThreadResponseSchema, ...errors },
        },
      },
      async (request) => {
        await service.deleteThread(caller(request.principal), request.params.id);
        return { success: true as const };
      },
    );
  };
}
