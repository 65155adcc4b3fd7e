/**
 * The direct-messages screen's server data through TanStack Query: the thread list, the open
 * thread read through DmClient (kept only while the thread is on screen) and the default room for the back button. Fetch failures are logged and toasted
 * with the spec's texts (spec 001 §8).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { TEXT } from '../../../shared/protocol/errors.js';
import { type DmThread } from '../../../shared/protocol/http/dm.js';
import { fetchDefaultRoom, roomKeys } from '../../lib/rooms/api.js';
import { dmKeys, fetchThreads } from './dm-api.js';
import { type DmClient } from './dm-client.js';
import { reportDmError } from './dm-errors.js';

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

/**
 * The open thread read through DmClient: the other side's checked identity, the thread key's
 * fate, the messages oldest first with their status; dropped from memory once it closes.
 */
export function useThreadReading(thread: DmThread, client: DmClient) {
  return useQuery(threadReadingQuery(thread, client));
}

/**
 * The reading's query: `gcTime` 0 drops it (the decrypted messages) from the cache as soon as no
 * view observes it, and never while one does (tests/unit/client/dm/thread-reading-query.test.ts).
 */
export function threadReadingQuery(thread: DmThread, client: Pick<DmClient, 'readThread'>) {
  return queryOptions({
    queryKey: dmKeys.messages(thread.id),
    gcTime: 0,
    queryFn: async () => {
      try {
        return await client.readThread(thread);
      } catch (error) {
        reportDmError(TEXT.dmFetchMessagesFailed, error);
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
