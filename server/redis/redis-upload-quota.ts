/**
 * Upload quotas shared by every process (server/features/images/quota.ts), each operation one
 * Lua script, so reservations from many processes cannot overshoot a limit.
 *
 *   {p}imgq:used     HASH  b:{scope key} → bytes, n:{scope key} → images
 *   {p}imgq:tickets  HASH  ticket → bytes "|" scope key "|" scope key …
 *   {p}imgq:expiry   ZSET  ticket scored by its expiry (ms); expired ones are released first
 */
import type { QuotaLimits, QuotaOwner, QuotaScope, UploadQuota } from '../features/images/index.js';
import { DEFAULT_UPLOAD_QUOTAS, scopeKeys } from '../features/images/index.js';
import type { RedisHandles } from './connect.js';

const SCOPES: readonly QuotaScope[] = ['member', 'room', 'address', 'global'];

/** Shared Lua: gives back ticket `t` (KEYS: used, tickets, expiry). */
const RELEASE_FN = `
local function release(t)
  local rec = redis.call('HGET', KEYS[2], t)
  redis.call('ZREM', KEYS[3], t)
  if not rec then return end
  redis.call('HDEL', KEYS[2], t)
  local bytes = nil
  for part in string.gmatch(rec, '[^|]+') do
    if bytes == nil then bytes = tonumber(part) else
      if redis.call('HINCRBY', KEYS[1], 'n:' .. part, -1) <= 0 then
        redis.call('HDEL', KEYS[1], 'n:' .. part, 'b:' .. part)
      else
        redis.call('HINCRBY', KEYS[1], 'b:' .. part, -bytes)
      end
    end
  end
end
`;

/** ARGV: now, ticket, bytes, expiresAt, then (scope key, max bytes, max count) × 4. */
const RESERVE = `${RELEASE_FN}
local expired = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', ARGV[1], 'LIMIT', 0, 200)
for _, t in ipairs(expired) do release(t) end
local bytes = tonumber(ARGV[3])
for i = 0, 3 do
  local key = ARGV[5 + i * 3]
  local usedBytes = tonumber(redis.call('HGET', KEYS[1], 'b:' .. key) or '0')
  local usedCount = tonumber(redis.call('HGET', KEYS[1], 'n:' .. key) or '0')
  if usedBytes + bytes > tonumber(ARGV[6 + i * 3]) or usedCount + 1 > tonumber(ARGV[7 + i * 3]) then
    return i + 1
  end
end
local rec = ARGV[3]
for i = 0, 3 do
  local key = ARGV[5 + i * 3]
  redis.call('HINCRBY', KEYS[1], 'b:' .. key, bytes)
  redis.call('HINCRBY', KEYS[1], 'n:' .. key, 1)
  rec = rec .. '|' .. key
end
redis.call('HSET', KEYS[2], ARGV[2], rec)
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[2])
return 0
`;

/** ARGV: ticket, bytes, expiresAt. */
const SETTLE = `
local rec = redis.call('HGET', KEYS[2], ARGV[1])
if not rec then return 0 end
local old = nil
local keys = {}
for part in string.gmatch(rec, '[^|]+') do
  if old == nil then old = tonumber(part) else table.insert(keys, part) end
end
local diff = tonumber(ARGV[2]) - old
local next = ARGV[2]
for _, key in ipairs(keys) do
  redis.call('HINCRBY', KEYS[1], 'b:' .. key, diff)
  next = next .. '|' .. key
end
redis.call('HSET', KEYS[2], ARGV[1], next)
redis.call('ZADD', KEYS[3], 'XX', ARGV[3], ARGV[1])
return 1
`;

/** ARGV: ticket. */
const RELEASE = `${RELEASE_FN}
release(ARGV[1])
return 1
`;

export class RedisUploadQuota implements UploadQuota {
  constructor(
    private readonly redis: RedisHandles,
    private readonly limits: QuotaLimits = DEFAULT_UPLOAD_QUOTAS,
  ) {}

  private keys(): [string, string, string] {
    const prefix = this.redis.prefix;
    return [`${prefix}imgq:used`, `${prefix}imgq:tickets`, `${prefix}imgq:expiry`];
  }

  async reserve(
    ticket: string,
    owner: QuotaOwner,
    bytes: number,
    expiresAt: number,
    now: number,
  ): Promise<QuotaScope | null> {
    const keys = scopeKeys(owner);
    const args = SCOPES.flatMap((scope) => [
      keys[scope],
      String(this.limits[scope].bytes),
      String(this.limits[scope].count),
    ]);
    const refused = Number(
      await this.redis.client.eval(
        RESERVE,
        3,
        ...this.keys(),
        String(now),
        ticket,
        String(bytes),
        String(expiresAt),
        ...args,
      ),
    );
    return refused === 0 ? null : (SCOPES[refused - 1] ?? 'global');
  }

  async settle(ticket: string, bytes: number, expiresAt: number): Promise<void> {
    await this.redis.client.eval(
      SETTLE,
      3,
      ...this.keys(),
      ticket,
      String(bytes),
      String(expiresAt),
    );
  }

  async extend(ticket: string, expiresAt: number): Promise<void> {
    await this.redis.client.zadd(this.keys()[2], 'XX', expiresAt, ticket);
  }

  async release(ticket: string): Promise<void> {
    await this.redis.client.eval(RELEASE, 3, ...this.keys(), ticket);
  }
}
