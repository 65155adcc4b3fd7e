/**
 * Redis for running several server processes as one service (REDIS_URL). One connection for
 * commands, one for subscriptions (a subscribed connection can do nothing else). Every key and
 * channel lives under a prefix; the product never flushes Redis.
 */
import { Redis } from 'ioredis';

export interface RedisHandles {
  client: Redis;
  subscriber: Redis;
  /** Prepended to every key and channel, e.g. `securechannel:`. */
  prefix: string;
  close(): Promise<void>;
}

export async function connectRedis(url: string, prefix: string): Promise<RedisHandles> {
  const options = {
    lazyConnect: true,
    maxRetriesPerRequest: 3,
    enableAutoPipelining: true,
    // While Redis is away a command fails at once instead of waiting in a queue to be sent on
    // reconnection, possibly before every process listens again: the caller answers "try again"
    // (lib/unavailable.ts), and redis-health.ts decides when relaying is safe again.
    enableOfflineQueue: false,
  } as const;
  const client = new Redis(url, options);
  const subscriber = new Redis(url, { ...options, enableAutoPipelining: false });
  // Connection errors are retried by ioredis; an unhandled 'error' event must not crash the process.
  client.on('error', () => undefined);
  subscriber.on('error', () => undefined);
  await Promise.all([client.connect(), subscriber.connect()]);
  return {
    client,
    subscriber,
    prefix,
    close: async () => {
      await Promise.allSettled([client.quit(), subscriber.quit()]);
    },
  };
}
