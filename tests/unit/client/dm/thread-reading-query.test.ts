/**
 * The open thread's decrypted reading (client/features/dm/use-dm-queries.ts) stays in the query
 * cache exactly as long as a view observes it: while the thread is on screen it is neither
 * dropped nor fetched again, and once the view lets go it leaves memory by itself. The DM screen
 * relies on this instead of removing it when a thread closes (removing it under a mounted view
 * fetched the deleted thread again; docs/decisions.md "Cases that failed only in whole runs").
 */
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { ThreadReading } from '../../../../client/features/dm/dm-client.js';
import { dmKeys } from '../../../../client/features/dm/dm-api.js';
import { threadReadingQuery } from '../../../../client/features/dm/use-dm-queries.js';
import type { DmThread } from '../../../../shared/protocol/http/dm.js';

const THREAD = { id: 'thread-1' } as DmThread;
// Only its identity matters here: the reading is never looked into.
const READING = { threadError: null, messages: [] } as unknown as ThreadReading;

const nextTimers = () => new Promise((resolve) => setTimeout(resolve, 10));

function setUp() {
  const queryClient = new QueryClient();
  let reads = 0;
  const client = {
    readThread: async () => {
      reads += 1;
      return READING;
    },
  };
  const observer = new QueryObserver(queryClient, threadReadingQuery(THREAD, client));
  const cached = () => queryClient.getQueryData(dmKeys.messages(THREAD.id));
  return { observer, cached, reads: () => reads };
}

describe('the DM thread reading in the query cache', () => {
  it('is kept, and not fetched again, while a view observes it', async () => {
    const { observer, cached, reads } = setUp();
    const stop = observer.subscribe(() => undefined);
    await expect.poll(cached).toBe(READING);
    await nextTimers();
    observer.setOptions(observer.options);
    await nextTimers();
    expect(cached()).toBe(READING);
    expect(reads()).toBe(1);
    stop();
  });

  it('leaves the cache by itself once the view lets go, without another fetch', async () => {
    const { observer, cached, reads } = setUp();
    const stop = observer.subscribe(() => undefined);
    await expect.poll(cached).toBe(READING);
    stop();
    await nextTimers();
    expect(cached()).toBeUndefined();
    expect(reads()).toBe(1);
  });
});
