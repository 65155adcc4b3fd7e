/**
 * Voice calls in Redis, shared by every process. Joining and leaving are Lua scripts, so the
 * participant cap holds and "first in" / "last out" are decided once, whichever process asks.
 *
 *   {p}voice:{roomId}          HASH nodeId → participant JSON
 *   {p}voice-start:{roomId}    ISO date the call started (deleted with the last participant)
 *
 * Participants of a process that dies are removed by the presence sweep (compose.ts) along with
 * their room membership. Both keys expire a day after the last change, so a cluster that stops
 * as a whole leaves nothing behind for long.
 */
import { z } from 'zod';
import { VoiceParticipantSchema, type VoiceParticipant } from '../../shared/protocol/ws/voice.js';
import {
  byJoiningOrder,
  type VoiceCall,
  type VoiceCallStore,
  type VoiceJoinResult,
  type VoiceLeaveResult,
} from '../features/voice/index.js';
import type { RedisHandles } from './connect.js';

const IDLE_TTL_MS = 24 * 60 * 60 * 1000;

/** Returns {status, startedAt, participant JSON...}. */
const JOIN = `
local status = 'joined'
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  status = 'already'
else
  local count = redis.call('HLEN', KEYS[1])
  if count >= tonumber(ARGV[3]) then return {'full'} end
  if count == 0 then redis.call('SET', KEYS[2], ARGV[4]) end
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
end
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
local result = {status, redis.call('GET', KEYS[2]) or ARGV[4]}
for _, value in ipairs(redis.call('HVALS', KEYS[1])) do table.insert(result, value) end
return result
`;

/** Returns {removed 0/1, startedAt or '', participant JSON...}. */
const LEAVE = `
local removed = redis.call('HDEL', KEYS[1], ARGV[1])
if redis.call('HLEN', KEYS[1]) == 0 then
  redis.call('DEL', KEYS[2])
  return {removed, ''}
end
local result = {removed, redis.call('GET', KEYS[2]) or ''}
for _, value in ipairs(redis.call('HVALS', KEYS[1])) do table.insert(result, value) end
return result
`;

/** Returns the participant JSON of the call and deletes it. */
const PURGE = `
local values = redis.call('HVALS', KEYS[1])
redis.call('DEL', KEYS[1], KEYS[2])
return values
`;

const ReplySchema = z.array(z.union([z.string(), z.number()]));

function parseParticipants(values: unknown[]): VoiceParticipant[] {
  return values
    .flatMap((raw) => {
      if (typeof raw !== 'string') return [];
      const parsed = VoiceParticipantSchema.safeParse(JSON.parse(raw));
      return parsed.success ? [parsed.data] : [];
    })
    .sort(byJoiningOrder);
}

export class RedisVoiceCallStore implements VoiceCallStore {
  constructor(private readonly redis: RedisHandles) {}

  private keys(roomId: string): [string, string] {
    return [`${this.redis.prefix}voice:${roomId}`, `${this.redis.prefix}voice-start:${roomId}`];
  }

  async join(
    roomId: string,
    participant: VoiceParticipant,
    maxParticipants: number,
  ): Promise<VoiceJoinResult> {
    const reply = ReplySchema.parse(
      await this.redis.client.eval(
        JOIN,
        2,
        ...this.keys(roomId),
        participant.nodeId,
        JSON.stringify(participant),
        String(maxParticipants),
        participant.joinedAt,
        String(IDLE_TTL_MS),
      ),
    );
    const [status, startedAt, ...values] = reply;
    if (status === 'full') return { status: 'full' };
    const call: VoiceCall = {
      participants: parseParticipants(values),
      startedAt: String(startedAt),
    };
    return { status: status === 'already' ? 'already' : 'joined', call };
  }

  async leave(roomId: string, nodeId: string): Promise<VoiceLeaveResult> {
    const [removed, startedAt, ...values] = ReplySchema.parse(
      await this.redis.client.eval(LEAVE, 2, ...this.keys(roomId), nodeId),
    );
    const participants = parseParticipants(values);
    return {
      removed: Number(removed) === 1,
      call:
        participants.length > 0 && startedAt
          ? { participants, startedAt: String(startedAt) }
          : null,
    };
  }

  async get(roomId: string): Promise<VoiceCall | null> {
    const [callKey, startKey] = this.keys(roomId);
    const [values, startedAt] = await Promise.all([
      this.redis.client.hvals(callKey),
      this.redis.client.get(startKey),
    ]);
    const participants = parseParticipants(values);
    return participants.length > 0 && startedAt ? { participants, startedAt } : null;
  }

  async areParticipants(roomId: string, nodeIds: string[]): Promise<boolean[]> {
    if (nodeIds.length === 0) return [];
    const values = await this.redis.client.hmget(this.keys(roomId)[0], ...nodeIds);
    return values.map((value) => value !== null);
  }

  async purgeRoom(roomId: string): Promise<VoiceParticipant[]> {
    const values = ReplySchema.parse(await this.redis.client.eval(PURGE, 2, ...this.keys(roomId)));
    return parseParticipants(values);
  }
}
