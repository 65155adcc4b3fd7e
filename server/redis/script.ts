/**
 * A Lua script run by its SHA1 (EVALSHA): Redis neither receives nor hashes the script's text on
 * every call, only once after a restart or SCRIPT FLUSH (NOSCRIPT), when it is sent with EVAL.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

export class RedisScript {
  private readonly sha: string;

  constructor(private readonly lua: string) {
    this.sha = createHash('sha1').update(lua).digest('hex');
  }

  async run(client: Redis, keys: readonly string[], args: readonly (string | number)[]) {
    try {
      return await client.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
      return client.eval(this.lua, keys.length, ...keys, ...args);
    }
  }
}
