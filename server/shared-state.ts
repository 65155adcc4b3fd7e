/**
 * Where live state lives: in this process (the default), or in Redis when REDIS_URL is set so
 * that any number of processes act as one service (DESIGN.md principle 4). Features get their
 * stores from here and never know which kind they hold.
 */
import { randomBytes } from 'node:crypto';
import { WS_ERROR } from '../shared/protocol/errors.js';
import type { Config } from './config.js';
import { AppError } from './errors.js';
import { MemoryBanStore, type BanStore } from './features/abuse/index.js';
import { MemoryLockoutStore, type LockoutStore } from './features/admin/index.js';
import { MemoryChallengeStore, type ChallengeStore } from './features/auth/index.js';
import {
  MemoryImageStore,
  MemoryUploadQuota,
  type ImageStore,
  type UploadQuota,
} from './features/images/index.js';
import {
  DEFAULT_HELD_MESSAGE_BUDGET,
  MAX_MESSAGES_PER_ROOM,
  MemoryMessageStore,
  type EphemeralMessageStore,
  type HeldMessageBudget,
} from './features/messages/index.js';
import { MemoryGameDirectory, type GameDirectory } from './features/pong/index.js';
import {
  MemoryAccessGrantStore,
  MemoryKeyBundleStore,
  MemoryPresenceStore,
  type AccessGrantStore,
  type KeyBundleStore,
  type PresenceStore,
} from './features/rooms/index.js';
import { MemoryAttemptCounter, type AttemptCounter } from './lib/attempt-counter.js';
import { MemoryRateLimiter, type RateLimiter } from './lib/rate-limiter.js';
import { MemoryVoiceCallStore, type VoiceCallStore } from './features/voice/index.js';
import { LocalFanout, type Fanout } from './realtime/fanout.js';
import { connectRedis, type RedisHandles } from './redis/connect.js';
import { RedisFanout } from './redis/redis-fanout.js';
import { RedisHealth } from './redis/redis-health.js';
import { RedisImageStore } from './redis/redis-image-store.js';
import { RedisUploadQuota } from './redis/redis-upload-quota.js';
import { RedisMessageStore } from './redis/redis-message-store.js';
import { RedisGameDirectory } from './redis/redis-pong-directory.js';
import { HEARTBEAT_INTERVAL_MS, RedisPresenceStore } from './redis/redis-presence.js';
import { RedisVoiceCallStore } from './redis/redis-voice-store.js';
import {
  RedisAccessGrantStore,
  RedisAttemptCounter,
  RedisBanStore,
  RedisChallengeStore,
  RedisKeyBundleStore,
  RedisLockoutStore,
  RedisRateLimiter,
} from './redis/redis-stores.js';

/** Room access grants last 12 hours (server/features/rooms/access-grants.ts). */
const GRANT_TTL_MS = 12 * 60 * 60 * 1000;

export interface SharedState {
  kind: 'memory' | 'redis';
  /** This process's identity in the cluster (random per start). */
  processId: string;
  fanout: Fanout;
  messages: EphemeralMessageStore;
  presence: PresenceStore;
  bundles: KeyBundleStore;
  grants: AccessGrantStore;
  images: ImageStore;
  /** Upload quotas per member, room, address and in all. */
  uploadQuota: UploadQuota;
  lockouts: LockoutStore;
  challenges: ChallengeStore;
  bans: BanStore;
  /** Which process hosts each Pong game. */
  pongGames: GameDirectory;
  /** Who is in each room's voice call. */
  voiceCalls: VoiceCallStore;
  limiter(name: string, limit: number, windowMs: number): RateLimiter;
  /** Reserve-then-refund failure counting (only failures count; atomic on every process). */
  attempts(name: string, limit: number, windowMs: number): AttemptCounter;
  /** Redis only: the heartbeat and dead-process sweep of presence. */
  presenceSweeper: RedisPresenceStore | null;
  /** Redis only: whether relaying is safe now, and the recovery after an outage. */
  redisHealth: RedisHealth | null;
  redis: RedisHandles | null;
  close(): Promise<void>;
}

/** Bounds of the shared state that are not settings (tests shorten them). */
export interface SharedStateLimits {
  /** Bytes of held room messages per visitor and in all. */
  heldMessageBudget: HeldMessageBudget;
}

export async function createSharedState(
  config: Config,
  now: () => number,
  limits: SharedStateLimits = { heldMessageBudget: DEFAULT_HELD_MESSAGE_BUDGET },
): Promise<SharedState> {
  const processId = `proc_${randomBytes(6).toString('hex')}`;
  if (!config.redisUrl) {
    return {
      kind: 'memory',
      processId,
      fanout: new LocalFanout(),
      messages: new MemoryMessageStore(MAX_MESSAGES_PER_ROOM, limits.heldMessageBudget),
      presence: new MemoryPresenceStore(),
      bundles: new MemoryKeyBundleStore(),
      grants: new MemoryAccessGrantStore(now),
      images: new MemoryImageStore(),
      uploadQuota: new MemoryUploadQuota(),
      lockouts: new MemoryLockoutStore(),
      challenges: new MemoryChallengeStore(now),
      bans: new MemoryBanStore(now),
      pongGames: new MemoryGameDirectory(),
      voiceCalls: new MemoryVoiceCallStore(),
      limiter: (_name, limit, windowMs) => new MemoryRateLimiter(limit, windowMs, now),
      attempts: (_name, limit, windowMs) => new MemoryAttemptCounter(limit, windowMs, now),
      presenceSweeper: null,
      redisHealth: null,
      redis: null,
      close: async () => undefined,
    };
  }
  const redis = await connectRedis(config.redisUrl, config.redisPrefix);
  const presence = new RedisPresenceStore(redis, processId);
  await presence.heartbeat();
  const fanout = new RedisFanout(redis);
  const health = new RedisHealth(redis, fanout, presence);
  const messages = new RedisMessageStore(
    redis,
    now,
    MAX_MESSAGES_PER_ROOM,
    limits.heldMessageBudget,
  );
  guardRelay(messages, health);
  return {
    kind: 'redis',
    processId,
    fanout,
    messages,
    presence,
    bundles: new RedisKeyBundleStore(redis),
    grants: new RedisAccessGrantStore(redis, GRANT_TTL_MS),
    images: new RedisImageStore(redis),
    uploadQuota: new RedisUploadQuota(redis),
    lockouts: new RedisLockoutStore(redis),
    challenges: new RedisChallengeStore(redis, now),
    bans: new RedisBanStore(redis),
    pongGames: new RedisGameDirectory(redis),
    voiceCalls: new RedisVoiceCallStore(redis),
    limiter: (name, limit, windowMs) => new RedisRateLimiter(redis, name, limit, windowMs),
    attempts: (name, limit, windowMs) => new RedisAttemptCounter(redis, name, limit, windowMs),
    presenceSweeper: presence,
    redisHealth: health,
    redis,
    close: () => {
      health.close();
      return redis.close();
    },
  };
}

/**
 * Nothing is acknowledged that not every process could hear (issue 35): a member's message is
 * refused while this process is degraded (redis-health.ts), and refused after the fact when a
 * Redis connection was lost while it was on its way, since ioredis may have sent it again on
 * reconnection, before every process listened again. The sender gets `WS_ERROR.notRelayed`
 * (features/messages/index.ts); its own `new_message` may still come, as may the others'.
 */
function guardRelay(store: RedisMessageStore, health: RedisHealth): void {
  const relay = store.relay.bind(store);
  store.relay = async (message, visitor) => {
    if (health.isDegraded) throw new AppError('NOT_RELAYED', 503, WS_ERROR.notRelayed);
    const losses = health.lossCount;
    const evicted = await relay(message, visitor);
    if (health.lossCount !== losses) throw new AppError('NOT_RELAYED', 503, WS_ERROR.notRelayed);
    return evicted;
  };
}

/** @fastify/rate-limit options: a shared Redis store when there is one. */
export function httpRateLimitStore(state: SharedState): {
  redis?: RedisHandles['client'];
  nameSpace?: string;
} {
  return state.redis
    ? { redis: state.redis.client, nameSpace: `${state.redis.prefix}http-rl:` }
    : {};
}

export { HEARTBEAT_INTERVAL_MS };
