/**
 * Redis for tests: TEST_REDIS_URL, REDIS_URL or redis://127.0.0.1:6379 (or the instance the
 * global setup started), a fresh key prefix per use, removed afterwards.
 */
import { randomBytes } from 'node:crypto';
import { connectRedis, type RedisHandles } from '../../server/redis/connect.js';
import { REDIS_URL } from './services.js';

export const REDIS_TEST_URL = REDIS_URL;

export function testPrefix(): string {
  return `sctest:${randomBytes(6).toString('hex')}:`;
}

/** Deletes every key under `prefix` (never anything else). */
export async function deletePrefix(handles: RedisHandles, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await handles.client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) await handles.client.del(...keys);
  } while (cursor !== '0');
}

export async function freshRedis(): Promise<RedisHandles & { cleanup: () => Promise<void> }> {
  const prefix = testPrefix();
  const handles = await connectRedis(REDIS_TEST_URL, prefix);
  return {
    ...handles,
    cleanup: async () => {
      await deletePrefix(handles, prefix);
      await handles.close();
    },
  };
}
