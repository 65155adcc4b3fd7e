/**
 * Which process hosts each Pong game, in Redis:
 *
 *   {p}pong-game:{gameId}   the hosting processId, PX 15000, refreshed every 5 s by the host
 *   {p}proc:{processId}     the process heartbeat of redis-presence.ts (PX 15000)
 *
 * A claim is SET NX; a claim held by a process whose heartbeat has gone is taken over, so a game
 * whose host died starts afresh on the next process that needs it.
 */
import type { GameDirectory } from '../features/pong/index.js';
import type { RedisHandles } from './connect.js';
import { HEARTBEAT_TTL_MS } from './redis-presence.js';

/** Deletes the key only if it still holds the expected value. */
const DELETE_IF = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
/** Extends the key only if it still holds the expected value. */
const EXTEND_IF = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;

export class RedisGameDirectory implements GameDirectory {
  constructor(private readonly redis: RedisHandles) {}

  private key(gameId: string) {
    return `${this.redis.prefix}pong-game:${gameId}`;
  }

  async claim(gameId: string, processId: string): Promise<string> {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const set = await this.redis.client.set(
        this.key(gameId),
        processId,
        'PX',
        HEARTBEAT_TTL_MS,
        'NX',
      );
      if (set === 'OK') return processId;
      const owner = await this.redis.client.get(this.key(gameId));
      if (owner === null) continue;
      if (owner === processId || (await this.isAlive(owner))) return owner;
      await this.redis.client.eval(DELETE_IF, 1, this.key(gameId), owner);
    }
    throw new Error('Could not claim the game');
  }

  async owner(gameId: string): Promise<string | null> {
    const owner = await this.redis.client.get(this.key(gameId));
    if (owner === null) return null;
    return (await this.isAlive(owner)) ? owner : null;
  }

  async refresh(gameIds: string[], processId: string): Promise<void> {
    await Promise.all(
      gameIds.map((gameId) =>
        this.redis.client.eval(EXTEND_IF, 1, this.key(gameId), processId, String(HEARTBEAT_TTL_MS)),
      ),
    );
  }

  async release(gameId: string, processId: string): Promise<void> {
    await this.redis.client.eval(DELETE_IF, 1, this.key(gameId), processId);
  }

  async isAlive(processId: string): Promise<boolean> {
    return (await this.redis.client.exists(`${this.redis.prefix}proc:${processId}`)) === 1;
  }
}
