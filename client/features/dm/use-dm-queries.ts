/**
 * The direct-messages screen's server data through TanStack Query: the thread list, the open
 * thread's messages (decrypted here, kept only while the thread is on screen), the caller's own
 * DM key record and the default room for the back button. Fetch failures are logged and toasted
 * with the spec's texts (spec 001 §8).
 */
import { useQuery } from '@tanstack/react-query';
import { TEXT } from '../../../shared/protocol/errors.js';
import { type DmThread } from '../../../shared/protocol/http/dm.js';
import { fetchDefaultRoom, roomKeys } from '../rooms/api.js';
import { dmKeys, fetchMessages, fetchRecipientKey, fetchThreads } from './dm-api.js';
import { decryptMessages } from './dm-crypto.js';
import { logDmError, reportDmError } from './dm-errors.js';
import { type ThreadKeyring } from './thread-keyring.js';

/** Newest activity first. */
function byActivity(threads: DmThread[]): DmThread[] {
  const at = (thread: DmThread) => Date.parse(thread.lastMessageAt ?? thread.createdAt);
  return [...threads].sort((a, b) => at(b) - at(a));
}

export function useDmThreads() {
  return useQuery({
    queryKey: dmKeys.threads,
    queryFn: async () => {
      try {
        return byActivity(await fetchThreads());
      } catch (error) {
        reportDmError(TEXT.dmFetchThreadsFailed, error);
        throw error;
      }
    },
  });
}

/** The open thread's messages, oldest first, decrypted; dropped from memory once it closes. */
export function useThreadMessages(thread: DmThread, keyring: ThreadKeyring) {
  return useQuery({
    queryKey: dmKeys.messages(thread.id),
    gcTime: 0,
    queryFn: async () => {
      let messages;
      try {
        messages = await fetchMessages(thread.id);
      } catch (error) {
        reportDmError(TEXT.dmFetchMessagesFailed, error);
        throw error;
      }
      const threadKey = await keyring.open(thread).catch((error: unknown) => {
        logDmError('Thread key could not be opened', error);
        return null;
      });
      return decryptMessages(messages, threadKey);
    },
  });
}

/** The caller's own DM key record: whether their key has an encryption key on the server. */
export function useOwnDmKey(keyId: string, isNeeded: boolean) {
  return useQuery({
    queryKey: dmKeys.key(keyId),
    enabled: isNeeded,
    queryFn: async () => {
      try {
        return await fetchRecipientKey(keyId);
      } catch (error) {
        logDmError('Own key record could not be read', error);
        throw error;
      }
    },
  });
}

/** Where the back button goes: /chat/{default room secureId}, or / when there is none. */
export function useBackToChatPath(): string {
  const { data } = useQuery({ queryKey: roomKeys.defaultRoom, queryFn: fetchDefaultRoom });
  return data ? `/chat/${data.secureId}` : '/';
}
