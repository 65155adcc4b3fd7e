/** Room and user fan-out through Redis pub/sub: every process hears every event of its channels. */
import { isDependencyUnavailable } from '../lib/unavailable.js';
import type { Fanout, FanoutHandler } from '../realtime/fanout.js';
import type { RedisHandles } from './connect.js';

export class RedisFanout implements Fanout {
  private readonly handlers = new Map<string, Set<FanoutHandler>>();

  constructor(private readonly redis: RedisHandles) {
    redis.subscriber.on('message', (channel: string, payload: string) => {
      const local = channel.slice(redis.prefix.length);
      for (const handler of this.handlers.get(local) ?? []) handler(payload);
    });
  }

  async publish(channel: string, payload: string): Promise<void> {
    await this.redis.client.publish(this.redis.prefix + channel, payload);
  }

  async subscribe(channel: string, handler: FanoutHandler): Promise<() => Promise<void>> {
    let handlers = this.handlers.get(channel);
    if (!handlers) {
      handlers = new Set();
      this.handlers.set(channel, handlers);
      try {
        await this.redis.subscriber.subscribe(this.redis.prefix + channel);
      } catch (error) {
        // Redis is away: the channel is subscribed when it is back (resubscribe, redis-health.ts).
        if (!isDependencyUnavailable(error)) {
          if (this.handlers.get(channel)?.size === 0) this.handlers.delete(channel);
          throw error;
        }
      }
    }
    handlers.add(handler);
    return async () => {
      const current = this.handlers.get(channel);
      if (!current) return;
      current.delete(handler);
      if (current.size > 0) return;
      this.handlers.delete(channel);
      try {
        await this.redis.subscriber.unsubscribe(this.redis.prefix + channel);
      } catch (error) {
        // Redis is away: a channel left over on its return has no handler, and is ignored.
        if (!isDependencyUnavailable(error)) throw error;
      }
    };
  }

  /**
   * Subscribes every channel this process listens to again and waits for Redis to confirm: once
   * this returns, whatever is published to them reaches this process. ioredis re-subscribes by
   * itself on reconnection but does not say when it is done; a channel asked for while Redis was
   * away is subscribed here too.
   */
  async resubscribe(): Promise<void> {
    const channels = [...this.handlers.keys()].map((channel) => this.redis.prefix + channel);
    if (channels.length > 0) await this.redis.subscriber.subscribe(...channels);
  }

  async close(): Promise<void> {
    this.handlers.clear();
  }
}
