/** Direct-message calls of the client (spec 001 §7), each answer parsed by its shared schema. */
import { RegisteredUsersSchema, type RegisteredUser } from '../../../shared/protocol/http/auth.js';
import {
  CreateDmThreadResponseSchema,
  DeleteDmThreadResponseSchema,
  DirectMessageListSchema,
  DirectMessageSchema,
  DmRecipientKeySchema,
  DmThreadListSchema,
  type DirectMessage,
  type DmRecipientKey,
  type DmThread,
} from '../../../shared/protocol/http/dm.js';
import { apiRequest } from '../../lib/http.js';

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

export function fetchMessages(threadId: string): Promise<DirectMessage[]> {
  return apiRequest(
    `/api/dm/threads/${encodeURIComponent(threadId)}/messages`,
    DirectMessageListSchema,
  );
}

export function fetchRegisteredUsers(): Promise<RegisteredUser[]> {
  return apiRequest('/api/auth/registered-users', RegisteredUsersSchema);
}

export function fetchRecipientKey(keyId: string): Promise<DmRecipientKey> {
  return apiRequest(`/api/dm/keys/${encodeURIComponent(keyId)}`, DmRecipientKeySchema);
}

export function createThread(body: {
  recipientKeyId: string;
  wrappedKeys?: { creator: string; recipient: string };
}) {
  return apiRequest('/api/dm/threads', CreateDmThreadResponseSchema, { method: 'POST', body });
}

export function postMessage(
  threadId: string,
  body: { encrypted: string; iv: string; expiresAt: string },
): Promise<DirectMessage> {
  return apiRequest(
    `/api/dm/threads/${encodeURIComponent(threadId)}/messages`,
    DirectMessageSchema,
    { method: 'POST', body },
  );
}

export function deleteThread(threadId: string) {
  return apiRequest(
    `/api/dm/threads/${encodeURIComponent(threadId)}`,
    DeleteDmThreadResponseSchema,
    { method: 'DELETE' },
  );
}
