/** Room and user fan-out through Redis pub/sub: every process hears every event of its channels. */
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
      await this.redis.subscriber.subscribe(this.redis.prefix + channel);
    }
    handlers.add(handler);
    return async () => {
      const current = this.handlers.get(channel);
      if (!current) return;
      current.delete(handler);
      if (current.size > 0) return;
      this.handlers.delete(channel);
      await this.redis.subscriber.unsubscribe(this.redis.prefix + channel);
    };
  }

  async close(): Promise<void> {
    this.handlers.clear();
  }
}
