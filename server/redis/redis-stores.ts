/**
 * The small shared stores in Redis: rate-limit windows, admin lockouts, bot bans, room access
 * grants and public key bundles. Each mirrors a memory implementation with the same interface.
 */
import { createHash, randomBytes } from 'node:crypto';
import { KeyBundleSchema } from '../../shared/protocol/ws/e2ee.js';
import type { LockoutAdmission, LockoutRules, LockoutStore } from '../features/admin/index.js';
import type { ChallengeEntry, ChallengeStore } from '../features/auth/index.js';
import type {
  AccessGrant,
  AccessGrantStore,
  BundleEntry,
  KeyBundleStore,
} from '../features/rooms/index.js';
import type { AttemptCounter } from '../lib/attempt-counter.js';
import type { RateLimiter } from '../lib/rate-limiter.js';
import type { RedisHandles } from './connect.js';

/** Fixed windows with INCR + PEXPIRE: the first hit of a window sets its expiry. */
export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly redis: RedisHandles,
    private readonly name: string,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  async hit(key: string): Promise<boolean> {
    const redisKey = `${this.redis.prefix}rl:${this.name}:${key}`;
    const [[, count]] = (await this.redis.client
      .multi()
      .incr(redisKey)
      .pexpire(redisKey, this.windowMs, 'NX')
      .exec()) as [[unknown, number], [unknown, number]];
    return count <= this.limit;
  }
}

/**
 * Reserve-then-refund attempt windows (server/lib/attempt-counter.ts): one script per step, so a
 * reservation never passes the limit and a refund never outlives its window.
 */
const ATTEMPT_RESERVE = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count >= tonumber(ARGV[1]) then return 0 end
redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2], 'NX')
return 1
`;
const ATTEMPT_REFUND = `
if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then redis.call('DECR', KEYS[1]) end
return 0
`;

export class RedisAttemptCounter implements AttemptCounter {
  constructor(
    private readonly redis: RedisHandles,
    private readonly name: string,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  private key(key: string) {
    return `${this.redis.prefix}attempts:${this.name}:${sha256(key)}`;
  }

  async reserve(key: string): Promise<boolean> {
    const allowed = await this.redis.client.eval(
      ATTEMPT_RESERVE,
      1,
      this.key(key),
      String(this.limit),
      String(this.windowMs),
    );
    return Number(allowed) === 1;
  }

  async refund(key: string): Promise<void> {
    await this.redis.client.eval(ATTEMPT_REFUND, 1, this.key(key));
  }
}

/**
 * The admin lockout rule (server/features/admin/lockout.ts) as two Lua scripts, so that counting
 * an attempt, checking the lock and marking the check in flight is one atomic step on every
 * process. The clock is the caller's (injectable), not Redis's.
 */
const LOCKOUT_READ = `
local v = redis.call('HMGET', KEYS[1], 'attempts', 'last', 'locked', 'inflight')
local attempts = tonumber(v[1]) or 0
local last = tonumber(v[2]) or 0
local locked = tonumber(v[3]) or 0
local inflight = tonumber(v[4]) or 0
local now = tonumber(ARGV[1])
local max = tonumber(ARGV[2])
local lockMs = tonumber(ARGV[3])
local resetMs = tonumber(ARGV[4])
local inflightMs = tonumber(ARGV[5])
local ttl = lockMs + resetMs + inflightMs
`;
const LOCKOUT_BEGIN = `${LOCKOUT_READ}
if locked > now then return {'locked', locked - now} end
if inflight > now then return {'busy', 0} end
if now - last >= resetMs then attempts = 0 end
if attempts >= max then
  redis.call('HSET', KEYS[1], 'attempts', 0, 'last', now, 'locked', now + lockMs, 'inflight', 0)
  redis.call('PEXPIRE', KEYS[1], ttl)
  return {'locked', lockMs}
end
redis.call('HSET', KEYS[1], 'attempts', attempts + 1, 'last', now, 'locked', locked, 'inflight', now + inflightMs)
redis.call('PEXPIRE', KEYS[1], ttl)
return {'admitted', 0}
`;
const LOCKOUT_FINISH = `${LOCKOUT_READ}
if ARGV[6] == '1' then
  redis.call('HSET', KEYS[1], 'attempts', 0, 'last', 0, 'locked', 0, 'inflight', 0)
  locked = 0
elseif attempts >= max then
  locked = math.max(locked, now + lockMs)
  redis.call('HSET', KEYS[1], 'attempts', 0, 'last', now, 'locked', locked, 'inflight', 0)
else
  redis.call('HSET', KEYS[1], 'inflight', 0)
end
redis.call('PEXPIRE', KEYS[1], ttl)
return math.max(0, locked - now)
`;

export class RedisLockoutStore implements LockoutStore {
  constructor(private readonly redis: RedisHandles) {}

  private key(client: string) {
    return `${this.redis.prefix}lockout:${sha256(client)}`;
  }

  private args(now: number, rules: LockoutRules): string[] {
    return [now, rules.maxAttempts, rules.lockoutMs, rules.resetMs, rules.inFlightMs].map(String);
  }

  async begin(client: string, now: number, rules: LockoutRules): Promise<LockoutAdmission> {
    const [kind, remaining] = (await this.redis.client.eval(
      LOCKOUT_BEGIN,
      1,
      this.key(client),
      ...this.args(now, rules),
    )) as [string, number]; // the script returns exactly this pair
    if (kind === 'locked') return { kind: 'locked', remainingMs: Number(remaining) };
    return kind === 'busy' ? { kind: 'busy' } : { kind: 'admitted' };
  }

  async finish(client: string, now: number, succeeded: boolean, rules: LockoutRules) {
    const locked = await this.redis.client.eval(
      LOCKOUT_FINISH,
      1,
      this.key(client),
      ...this.args(now, rules),
      succeeded ? '1' : '0',
    );
    return Number(locked);
  }
}

/** Addresses banned as bots, each until its TTL runs out. */
export class RedisBanStore {
  constructor(private readonly redis: RedisHandles) {}

  async ban(address: string, ms: number): Promise<void> {
    await this.redis.client.set(`${this.redis.prefix}ban:${address}`, '1', 'PX', ms);
  }

  async isBanned(address: string): Promise<boolean> {
    return (await this.redis.client.exists(`${this.redis.prefix}ban:${address}`)) === 1;
  }
}

/**
 * Ends grants atomically. KEYS[1] = the room's holder → token hash; ARGV[1] = key prefix,
 * ARGV[2] = room id, ARGV[3] = "1" to end the holders named in ARGV[4..], "0" to end every holder
 * but them. Returns how many grants ended.
 */
const GRANT_REVOKE = `
local named = {}
for i = 4, #ARGV do named[ARGV[i]] = true end
local only = ARGV[3] == '1'
local ended = 0
if only then
  -- Also a named holder's grant the room's hash does not list (issued before the hash existed).
  for i = 4, #ARGV do
    local holderKey = ARGV[1] .. 'grant-of:' .. ARGV[i] .. ':' .. ARGV[2]
    local token = redis.call('GET', holderKey)
    if token and redis.call('HEXISTS', KEYS[1], ARGV[i]) == 0 then
      redis.call('DEL', ARGV[1] .. 'grant:' .. token, holderKey)
      ended = ended + 1
    end
  end
end
local entries = redis.call('HGETALL', KEYS[1])
for i = 1, #entries, 2 do
  local holder, token = entries[i], entries[i + 1]
  if (named[holder] == true) == only then
    redis.call('DEL', ARGV[1] .. 'grant:' .. token, ARGV[1] .. 'grant-of:' .. holder .. ':' .. ARGV[2])
    redis.call('HDEL', KEYS[1], holder)
    ended = ended + 1
  end
end
return ended
`;

export class RedisAccessGrantStore implements AccessGrantStore {
  constructor(
    private readonly redis: RedisHandles,
    private readonly ttlMs: number,
  ) {}

  private grantKey(token: string) {
    return `${this.redis.prefix}grant:${token}`;
  }

  private roomKey(roomId: string) {
    return `${this.redis.prefix}grants-in:${roomId}`;
  }

  /**
   *   {p}grant:{token}              STRING roomId "\n" holder, PX = lifetime
   *   {p}grant-of:{holder}:{roomId} STRING token, PX = lifetime
   *   {p}grants-in:{roomId}         HASH holder → token, PX = lifetime of its newest grant
   * Redis expires them by itself; re-issuing refreshes them; revoking deletes them, so every
   * process refuses the token at once.
   */
  async issue(roomId: string, holder: string): Promise<string> {
    const holderKey = `${this.redis.prefix}grant-of:${holder}:${roomId}`;
    const existing = await this.redis.client.get(holderKey);
    const token =
      existing !== null && (await this.isValid(existing, roomId))
        ? existing
        : randomBytes(24).toString('base64url');
    await this.redis.client
      .multi()
      .set(this.grantKey(token), `${roomId}\n${holder}`, 'PX', this.ttlMs)
      .set(holderKey, token, 'PX', this.ttlMs)
      .hset(this.roomKey(roomId), holder, token)
      .pexpire(this.roomKey(roomId), this.ttlMs)
      .exec();
    return token;
  }

  async isValid(token: string, roomId: string): Promise<boolean> {
    return (await this.find(token))?.roomId === roomId;
  }

  async find(token: string): Promise<AccessGrant | null> {
    const raw = await this.redis.client.get(this.grantKey(token));
    if (raw === null) return null;
    const split = raw.indexOf('\n');
    return split < 0 ? null : { roomId: raw.slice(0, split), holder: raw.slice(split + 1) };
  }

  async revoke(roomId: string, holder: string): Promise<void> {
    await this.redis.client.eval(
      GRANT_REVOKE,
      1,
      this.roomKey(roomId),
      this.redis.prefix,
      roomId,
      '1',
      holder,
    );
  }

  async revokeAbsent(roomId: string, keep: ReadonlySet<string>): Promise<number> {
    return Number(
      await this.redis.client.eval(
        GRANT_REVOKE,
        1,
        this.roomKey(roomId),
        this.redis.prefix,
        roomId,
        '0',
        ...keep,
      ),
    );
  }

  async purgeRoom(roomId: string): Promise<void> {
    await this.revokeAbsent(roomId, new Set());
  }
}

export class RedisKeyBundleStore implements KeyBundleStore {
  constructor(private readonly redis: RedisHandles) {}

  private key(roomId: string) {
    return `${this.redis.prefix}bundles:${roomId}`;
  }

  async set(roomId: string, entry: BundleEntry): Promise<void> {
    await this.redis.client
      .multi()
      .hset(this.key(roomId), entry.nodeId, JSON.stringify(entry))
      .pexpire(this.key(roomId), 24 * 3_600_000)
      .exec();
  }

  async list(roomId: string): Promise<BundleEntry[]> {
    return (await this.redis.client.hvals(this.key(roomId))).flatMap((raw) => {
      const value = JSON.parse(raw) as { nodeId?: unknown; username?: unknown; bundle?: unknown };
      const bundle = KeyBundleSchema.safeParse(value.bundle);
      if (!bundle.success || typeof value.nodeId !== 'string' || typeof value.username !== 'string')
        return [];
      return [{ nodeId: value.nodeId, username: value.username, bundle: bundle.data }];
    });
  }

  async remove(roomId: string, nodeId: string): Promise<void> {
    await this.redis.client.hdel(this.key(roomId), nodeId);
  }

  async purgeRoom(roomId: string): Promise<void> {
    await this.redis.client.del(this.key(roomId));
  }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Login challenges with their two-minute TTL, so a challenge issued by one process is verifiable
 * on another. Keys are hashes of the key id and the challenge (short, and free of glob
 * characters, so one key's challenges can be found on revocation).
 */
export class RedisChallengeStore implements ChallengeStore {
  constructor(
    private readonly redis: RedisHandles,
    private readonly now: () => number,
  ) {}

  private key(challenge: string, keyId: string) {
    return `${this.redis.prefix}challenge:${sha256(keyId)}:${sha256(challenge)}`;
  }

  async put(challenge: string, entry: ChallengeEntry): Promise<void> {
    const ttl = Math.max(1, entry.expiresAt - this.now());
    await this.redis.client.set(
      this.key(challenge, entry.keyId),
      String(entry.expiresAt),
      'PX',
      ttl,
    );
  }

  async take(challenge: string, keyId: string): Promise<ChallengeEntry | null> {
    const raw = await this.redis.client.getdel(this.key(challenge, keyId));
    const expiresAt = raw === null ? NaN : Number(raw);
    return Number.isFinite(expiresAt) && expiresAt > this.now() ? { keyId, expiresAt } : null;
  }

  async forgetKey(keyId: string): Promise<void> {
    const prefix = this.redis.prefix.replace(/[*?[\]\\]/g, '\\$&');
    const match = `${prefix}challenge:${sha256(keyId)}:*`;
    let cursor = '0';
    do {
      const [next, found] = await this.redis.client.scan(cursor, 'MATCH', match, 'COUNT', 500);
      if (found.length > 0) await this.redis.client.del(...found);
      cursor = next;
    } while (cursor !== '0');
  }
}
