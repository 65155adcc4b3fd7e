/**
 * Presence in Redis, shared by every process. Each member record names the process that holds
 * its socket; each process refreshes a heartbeat key with a 15-second TTL. A process that dies
 * stops refreshing, and its members are dropped by whichever process sweeps first (within 15 s).
 *
 *   {p}presence:{roomId}   HASH nodeId → member JSON
 *   {p}presence-rooms      SET of room ids with members
 *   {p}proc:{processId}    heartbeat, PX 15000
 *   {p}procs               SET of process ids that have written a heartbeat (the dead are
 *                          removed by whichever process notices)
 *
 * Each process also keeps its own members here, in memory, so that it can write them back after
 * a Redis restart, which loses them all ({@link RedisPresenceStore.restore}, redis-health.ts).
 */
import { z } from 'zod';
import { RoomUserSchema } from '../../shared/protocol/ws/chat.js';
import type { PresenceMember, PresenceStore } from '../features/rooms/index.js';
import { isDependencyUnavailable } from '../lib/unavailable.js';
import type { RedisHandles } from './connect.js';

export const HEARTBEAT_TTL_MS = 15_000;
export const HEARTBEAT_INTERVAL_MS = 5_000;

const StoredMemberSchema = RoomUserSchema.omit({ secureId: true }).extend({
  roomId: z.string(),
  processId: z.string(),
  keyId: z.string().nullish(),
  moderationRole: z.enum(['member', 'moderator', 'room_admin', 'service_admin']).optional(),
  addressTag: z.string().nullish(),
});

/** Sets one boolean field of a stored member, if the member is still there. */
const SET_FIELD_IF_PRESENT = `
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return 0 end
local member = cjson.decode(raw)
member[ARGV[2]] = ARGV[3] == 'true'
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(member))
return 1
`;

export class RedisPresenceStore implements PresenceStore {
  /** This process's members by room and node id: what Redis should hold for it. */
  private readonly own = new Map<string, Map<string, PresenceMember>>();
  /** Leaves Redis did not take (it was away): removed again on {@link restore}. */
  private readonly pendingLeaves = new Map<string, Set<string>>();

  constructor(
    private readonly redis: RedisHandles,
    readonly processId: string,
  ) {}

  private remember(member: PresenceMember): void {
    let members = this.own.get(member.roomId);
    if (!members) {
      members = new Map();
      this.own.set(member.roomId, members);
    }
    members.set(member.nodeId, member);
  }

  private forget(roomId: string, nodeId: string): void {
    const members = this.own.get(roomId);
    members?.delete(nodeId);
    if (members?.size === 0) this.own.delete(roomId);
  }

  private update(roomId: string, nodeId: string, change: Partial<PresenceMember>): void {
    const member = this.own.get(roomId)?.get(nodeId);
    if (member) this.remember({ ...member, ...change });
  }

  /**
   * Writes this process's heartbeat and members back, and removes the members that left while
   * Redis was away. After a Redis restart presence is empty: every process calls this once its
   * connections are back, so member lists heal without anyone rejoining.
   */
  async restore(): Promise<void> {
    const transaction = this.redis.client
      .multi()
      .set(this.proc(this.processId), '1', 'PX', HEARTBEAT_TTL_MS)
      .sadd(this.procs, this.processId);
    for (const [roomId, nodeIds] of this.pendingLeaves) {
      transaction.hdel(this.room(roomId), ...nodeIds);
    }
    for (const [roomId, members] of this.own) {
      for (const member of members.values()) {
        transaction.hset(
          this.room(roomId),
          member.nodeId,
          JSON.stringify({ ...member, processId: this.processId }),
        );
      }
      transaction.sadd(this.rooms, roomId);
    }
    const pending = [...this.pendingLeaves];
    await transaction.exec();
    for (const [roomId, nodeIds] of pending) {
      const now = this.pendingLeaves.get(roomId);
      for (const nodeId of nodeIds) now?.delete(nodeId);
      if (now?.size === 0) this.pendingLeaves.delete(roomId);
    }
  }

  /** The processes whose heartbeat is alive; forgets the others. */
  async liveProcesses(): Promise<Set<string>> {
    const registered = await this.redis.client.smembers(this.procs);
    const alive = await this.aliveProcesses(registered);
    const dead = registered.filter((id) => !alive.has(id));
    if (dead.length > 0) await this.redis.client.srem(this.procs, ...dead);
    return alive;
  }

  /** Which of `processIds` have a live heartbeat. */
  processesAlive(processIds: string[]): Promise<Set<string>> {
    return this.aliveProcesses(processIds);
  }

  private room(roomId: string) {
    return `${this.redis.prefix}presence:${roomId}`;
  }
  private get rooms() {
    return `${this.redis.prefix}presence-rooms`;
  }
  private proc(processId: string) {
    return `${this.redis.prefix}proc:${processId}`;
  }
  private get procs() {
    return `${this.redis.prefix}procs`;
  }

  /** Refreshes this process's heartbeat; called every HEARTBEAT_INTERVAL_MS. */
  async heartbeat(): Promise<void> {
    await this.redis.client
      .multi()
      .set(this.proc(this.processId), '1', 'PX', HEARTBEAT_TTL_MS)
      .sadd(this.procs, this.processId)
      .exec();
  }

  async join(member: PresenceMember): Promise<void> {
    this.remember(member);
    this.pendingLeaves.get(member.roomId)?.delete(member.nodeId);
    try {
      await this.heartbeat();
      await this.redis.client
        .multi()
        .hset(
          this.room(member.roomId),
          member.nodeId,
          JSON.stringify({ ...member, processId: this.processId }),
        )
        .sadd(this.rooms, member.roomId)
        .exec();
    } catch (error) {
      this.forget(member.roomId, member.nodeId);
      throw error;
    }
  }

  async leave(roomId: string, nodeId: string): Promise<void> {
    this.forget(roomId, nodeId);
    try {
      await this.redis.client.hdel(this.room(roomId), nodeId);
    } catch (error) {
      let pending = this.pendingLeaves.get(roomId);
      if (!pending) {
        pending = new Set();
        this.pendingLeaves.set(roomId, pending);
      }
      pending.add(nodeId);
      // Redis is away: the leave is applied when this process restores its members.
      if (!isDependencyUnavailable(error)) throw error;
    }
  }

  async setStatus(roomId: string, nodeId: string, status: PresenceMember['status']): Promise<void> {
    this.update(roomId, nodeId, { status, lastSeen: new Date().toISOString() });
    const raw = await this.redis.client.hget(this.room(roomId), nodeId);
    if (!raw) return;
    const member = StoredMemberSchema.safeParse(JSON.parse(raw));
    if (!member.success) return;
    await this.redis.client.hset(
      this.room(roomId),
      nodeId,
      JSON.stringify({ ...member.data, status, lastSeen: new Date().toISOString() }),
    );
  }

  async setVoiceActive(roomId: string, nodeId: string, isVoiceActive: boolean): Promise<boolean> {
    this.update(roomId, nodeId, { isVoiceActive });
    // One script: a concurrent leave must not be undone by writing the member back.
    const updated = await this.redis.client.eval(
      SET_FIELD_IF_PRESENT,
      1,
      this.room(roomId),
      nodeId,
      'isVoiceActive',
      isVoiceActive ? 'true' : 'false',
    );
    return Number(updated) === 1;
  }

  private async members(roomId: string): Promise<(PresenceMember & { processId: string })[]> {
    const entries = await this.redis.client.hvals(this.room(roomId));
    return entries.flatMap((raw) => {
      const parsed = StoredMemberSchema.safeParse(JSON.parse(raw));
      return parsed.success ? [parsed.data] : [];
    });
  }

  /** Members whose process is alive. */
  async list(roomId: string): Promise<PresenceMember[]> {
    const members = await this.members(roomId);
    const alive = await this.aliveProcesses(members.map((member) => member.processId));
    return members
      .filter((member) => alive.has(member.processId))
      .map(({ processId: _processId, ...member }) => member);
  }

  async all(): Promise<PresenceMember[]> {
    const rooms = await this.redis.client.smembers(this.rooms);
    return (await Promise.all(rooms.map((roomId) => this.list(roomId)))).flat();
  }

  async purgeRoom(roomId: string): Promise<void> {
    this.own.delete(roomId);
    this.pendingLeaves.delete(roomId);
    await this.redis.client.multi().del(this.room(roomId)).srem(this.rooms, roomId).exec();
  }

  /**
   * Removes members of dead processes; returns them by room. HDEL decides which process removed a
   * member, so each departure is announced once.
   */
  async sweepDead(): Promise<Map<string, PresenceMember[]>> {
    const removed = new Map<string, PresenceMember[]>();
    for (const roomId of await this.redis.client.smembers(this.rooms)) {
      const members = await this.members(roomId);
      if (members.length === 0) {
        await this.redis.client.srem(this.rooms, roomId);
        continue;
      }
      const alive = await this.aliveProcesses(members.map((member) => member.processId));
      for (const member of members) {
        if (alive.has(member.processId)) continue;
        if ((await this.redis.client.hdel(this.room(roomId), member.nodeId)) === 1) {
          const { processId: _processId, ...left } = member;
          removed.set(roomId, [...(removed.get(roomId) ?? []), left]);
        }
      }
    }
    return removed;
  }

  private async aliveProcesses(processIds: string[]): Promise<Set<string>> {
    const unique = [...new Set(processIds)];
    if (unique.length === 0) return new Set();
    const values = await this.redis.client.mget(unique.map((id) => this.proc(id)));
    return new Set(unique.filter((_, index) => values[index] !== null));
  }
}
