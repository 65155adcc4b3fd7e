/** Direct-message calls of the client (spec 001 §7), each answer parsed by its shared schema. */
import type { z } from 'zod';
import { RegisteredUsersSchema, type RegisteredUser } from '../../../shared/protocol/http/auth.js';
import {
  CreateDmThreadResponseSchema,
  DeleteDmThreadResponseSchema,
  DirectMessageListSchema,
  DirectMessageSchema,
  DmRecipientKeySchema,
  DmThreadListSchema,
  type CreateDmThreadRequest,
  type DirectMessage,
  type DmRecipientKey,
  type DmThread,
  type SendDirectMessageRequest,
} from '../../../shared/protocol/http/dm.js';
import { apiRequest, type RequestOptions } from '../../lib/http.js';

/** How a call reaches the server: the page's `apiRequest`, or a test's own fetch with a token. */
export type ApiRequester = <S extends z.ZodType>(
  path: string,
  schema: S,
  options?: RequestOptions,
) => Promise<z.infer<S>>;

/** The calls DmClient makes; every answer parsed by its shared schema. */
export interface DmApi {
  fetchRecipientKey(keyId: string): Promise<DmRecipientKey>;
  createThread(body: CreateDmThreadRequest): Promise<{ thread: DmThread }>;
  fetchMessages(threadId: string): Promise<DirectMessage[]>;
  postMessage(threadId: string, body: SendDirectMessageRequest): Promise<DirectMessage>;
}

/** The DM calls over `request`. */
export function createDmApi(request: ApiRequester = apiRequest): DmApi {
  const messagesPath = (threadId: string) =>
    `/api/dm/threads/${encodeURIComponent(threadId)}/messages`;
  return {
    fetchRecipientKey: (keyId) =>
      request(`/api/dm/keys/${encodeURIComponent(keyId)}`, DmRecipientKeySchema),
    createThread: (body) =>
      request('/api/dm/threads', CreateDmThreadResponseSchema, { method: 'POST', body }),
    fetchMessages: (threadId) => request(messagesPath(threadId), DirectMessageListSchema),
    postMessage: (threadId, body) =>
      request(messagesPath(threadId), DirectMessageSchema, { method: 'POST', body }),
  };
}

export const dmKeys = {
  all: ['dm'] as const,
  threads: ['dm', 'threads'] as const,
  messages: (threadId: string) => ['dm', 'messages', threadId] as const,
  users: ['dm', 'registered-users'] as const,
  key: (keyId: string) => ['dm', 'key', keyId] as const,
};

export function fetchThreads(): Promise<DmThread[]> {
  return apiRequest('/api/dm/threads', DmThreadListSchema);
}

export function fetchRegisteredUsers(): Promise<RegisteredUser[]> {
  return apiRequest('/api/auth/registered-users', RegisteredUsersSchema);
}

export function fetchRecipientKey(keyId: string): Promise<DmRecipientKey> {
  return apiRequest(`/api/dm/keys/${encodeURIComponent(keyId)}`, DmRecipientKeySchema);
}

export function deleteThread(threadId: string) {
  return apiRequest(
    `/api/dm/threads/${encodeURIComponent(threadId)}`,
    DeleteDmThreadResponseSchema,
    { method: 'DELETE' },
  );
}
