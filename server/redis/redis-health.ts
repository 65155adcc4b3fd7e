/**
 * Whether this process can relay through Redis now, and its recovery after an outage
 * (DESIGN.md principle 10; issue 35).
 *
 * A process is *degraded* from the moment either of its Redis connections closes until the
 * cluster is whole again:
 *
 * 1. both connections are back, this process's subscriptions are confirmed (RedisFanout
 *    re-subscribes every channel and waits for the answer), and its members and heartbeat are
 *    written back (a restarted Redis holds nothing: RedisPresenceStore.restore);
 * 2. every process that was alive before the outage has done step 1 too: its heartbeat key is
 *    back. Each writes its heartbeat only when it is whole, so a message published after this
 *    reaches every process's subscriber. A peer that does not come back (it died meanwhile) is
 *    waited for until its heartbeat would have expired, and at least {@link PEER_GRACE_MS} after
 *    this process is whole again.
 *
 * While degraded, room messages are refused with an error frame instead of being published into a
 * Redis that not every process listens to yet (shared-state.ts wraps the message store's relay),
 * `/api/ping` says `degraded: true`, and the metric `securechannel_redis_degraded` is 1. Entering
 * and leaving the state log one line each. On leaving it, every room with members here hears
 * its member list again (compose.ts), so lists heal without anyone rejoining.
 *
 * The other processes only know of an outage that Redis itself had (a restart). When this process
 * alone lost a connection, its subscriber above all, while Redis kept running, the others went on
 * publishing, and what they published meanwhile never reached it: room messages, member changes,
 * keys, moderation. Recovery tells the two apart by Redis's `run_id` (the same server, or a
 * restarted one); when it cannot rule out that events were missed, the watcher is told
 * (`eventsMayBeMissed`) and closes this process's sockets so that their clients join again
 * (compose.ts): `room_joined` then carries the messages stored meanwhile, and the join checks
 * run again.
 *
 * A subscriber whose connection is dead without being closed (a half-open TCP connection) is
 * found by a PING every {@link PEER_REFRESH_MS}: unanswered for {@link SUBSCRIBER_PROBE_TIMEOUT_MS},
 * the connection is dropped and made again, which is the outage above.
 */
import type { FastifyBaseLogger } from 'fastify';
import { errorForLog } from '../lib/log-error.js';
import { isDependencyUnavailable } from '../lib/unavailable.js';
import type { RedisHandles } from './connect.js';
import type { RedisFanout } from './redis-fanout.js';
import { HEARTBEAT_TTL_MS, type RedisPresenceStore } from './redis-presence.js';

/** How long a recovering process waits at least for a peer that was alive before the outage. */
export const PEER_GRACE_MS = 5_000;
/** How often a recovering process retries its steps and looks for its peers. */
export const RECOVERY_POLL_MS = 200;
/**
 * How often a process learns which others are alive (two commands): a process that started a
 * moment before an outage is waited for too.
 */
export const PEER_REFRESH_MS = 1_000;
/** How long the subscriber may leave a PING unanswered before its connection is made again. */
export const SUBSCRIBER_PROBE_TIMEOUT_MS = 10_000;

/**
 * How this process closes its sockets after an outage in which it may have missed events (see
 * above): 1012 (service restart), which clients take as "join again" (client/lib/realtime).
 */
export const RELAY_INTERRUPTED_CLOSE = { code: 1012, reason: 'Relay interrupted: join again' };

/** What a recovery tells the watcher. */
export interface RedisRecovery {
  /**
   * True when Redis kept running through this process's outage (or that is unknown): the other
   * processes may have published events that this process never heard.
   */
  eventsMayBeMissed: boolean;
}

export interface RedisHealthWatch {
  logger: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** Runs each time the cluster is whole again after an outage (member lists to the rooms). */
  onRecovered: (recovery: RedisRecovery) => Promise<void>;
}

export class RedisHealth {
  /** When the current outage began (ms), or null when the process is not degraded. */
  private degradedSince: number | null = null;
  /** Counts connection losses: work begun before a loss can tell that one happened meanwhile. */
  private losses = 0;
  /** This process's own part of recovery is done: its heartbeat may be written. */
  private isWhole = true;
  private recoveringLoss: number | null = null;
  private isClosing = false;
  /** Other processes seen alive, and when (ms). */
  private readonly peers = new Map<string, number>();
  private watcher: RedisHealthWatch | null = null;
  private peerTimer: NodeJS.Timeout | null = null;
  /** The Redis server's `run_id` as last seen (null: not known), to tell a restart. */
  private runId: string | null = null;
  private isProbing = false;

  constructor(
    private readonly redis: RedisHandles,
    private readonly fanout: RedisFanout,
    private readonly presence: RedisPresenceStore,
    private readonly clock: () => number = Date.now,
  ) {
    for (const connection of [redis.client, redis.subscriber]) {
      connection.on('close', () => this.lost());
      connection.on('ready', () => this.maybeRecover());
    }
  }

  /** True from a Redis connection's loss until the cluster is whole again (see above). */
  get isDegraded(): boolean {
    return this.degradedSince !== null;
  }

  /** How many other processes this one knows to be alive (and would wait for after an outage). */
  get peerCount(): number {
    return this.peers.size;
  }

  /** Increases with every connection loss (see shared-state.ts, the relay's guard). */
  get lossCount(): number {
    return this.losses;
  }

  /** Starts logging and announcing recoveries, and learning the peers every PEER_REFRESH_MS. */
  watch(watcher: RedisHealthWatch): void {
    this.watcher = watcher;
    void this.serverRunId().then(
      (runId) => {
        this.runId ??= runId;
      },
      () => undefined,
    );
    const refresh = () => {
      if (this.isClosing) return;
      void this.probeSubscriber();
      if (this.isWhole) void this.refreshPeers().catch(() => undefined);
    };
    refresh();
    this.peerTimer = setInterval(refresh, PEER_REFRESH_MS);
    this.peerTimer.unref();
  }

  /**
   * The heartbeat (every HEARTBEAT_INTERVAL_MS). False when this process is not whole: nothing is
   * written then, so that no peer takes it for back before it listens again.
   */
  async tick(): Promise<boolean> {
    if (!this.isWhole || this.isClosing) return false;
    await this.presence.heartbeat();
    return true;
  }

  /** Learns which other processes are alive now. */
  private async refreshPeers(): Promise<void> {
    const alive = await this.presence.liveProcesses();
    const at = this.clock();
    for (const id of alive) if (id !== this.presence.processId) this.peers.set(id, at);
    for (const [id, seenAt] of this.peers) {
      if (!alive.has(id) && seenAt + HEARTBEAT_TTL_MS < at) this.peers.delete(id);
    }
  }

  /**
   * PINGs the subscriber; when no answer comes within SUBSCRIBER_PROBE_TIMEOUT_MS, drops its
   * connection and makes it again (ioredis re-subscribes; this is an outage, see above). A refused
   * PING needs nothing: the connection's 'close' has begun the outage already.
   */
  private async probeSubscriber(): Promise<void> {
    const subscriber = this.redis.subscriber;
    if (this.isProbing || subscriber.status !== 'ready') return;
    this.isProbing = true;
    let isAnswered = false;
    const answer = subscriber.ping().then(
      () => (isAnswered = true),
      () => (isAnswered = true),
    );
    await Promise.race([answer, pause(SUBSCRIBER_PROBE_TIMEOUT_MS)]);
    // A blocked event loop fires the timer before it reads a waiting answer: read first.
    if (!isAnswered) await new Promise((resolve) => setImmediate(resolve));
    this.isProbing = false;
    if (isAnswered || this.isClosing || subscriber.status !== 'ready') return;
    this.watcher?.logger.warn(
      { processId: this.presence.processId },
      'redis subscriber did not answer: connecting it again',
    );
    subscriber.disconnect(true);
  }

  /**
   * The Redis server's `run_id` (changes when it restarts), or null when Redis does not say (INFO
   * refused, as some managed services do). Throws while Redis is away.
   */
  private async serverRunId(): Promise<string | null> {
    try {
      const info = await this.redis.client.info('server');
      return /^run_id:(\w+)/m.exec(info)?.[1] ?? null;
    } catch (error) {
      if (isDependencyUnavailable(error)) throw error;
      return null;
    }
  }

  /** Stops watching (the server is closing: its own quit is no outage). */
  close(): void {
    this.isClosing = true;
    if (this.peerTimer) clearInterval(this.peerTimer);
    this.peerTimer = null;
  }

  private lost(): void {
    if (this.isClosing) return;
    this.losses += 1;
    this.isWhole = false;
    if (this.degradedSince !== null) return;
    this.degradedSince = this.clock();
    this.watcher?.logger.warn(
      { processId: this.presence.processId },
      'redis unavailable: degraded, room messages are refused until it is back',
    );
  }

  private maybeRecover(): void {
    if (this.isClosing || this.degradedSince === null) return;
    if (this.redis.client.status !== 'ready' || this.redis.subscriber.status !== 'ready') return;
    if (this.recoveringLoss === this.losses) return;
    this.recoveringLoss = this.losses;
    void this.recover(this.losses);
  }

  private async recover(loss: number): Promise<void> {
    const isCurrent = () => loss === this.losses && !this.isClosing;
    // 1. This process: subscriptions confirmed, members and heartbeat written back; and whether
    //    Redis ran on meanwhile (the same run_id), so that the others kept publishing.
    let eventsMayBeMissed = true;
    while (isCurrent()) {
      try {
        await this.fanout.resubscribe();
        await this.presence.restore();
        const runId = await this.serverRunId();
        eventsMayBeMissed = runId === null || this.runId === null || runId === this.runId;
        if (runId !== null) this.runId = runId;
        break;
      } catch {
        await pause(RECOVERY_POLL_MS);
      }
    }
    if (!isCurrent()) return;
    this.isWhole = true;
    const wholeAt = this.clock();
    // 2. Every peer that was alive before the outage, or the time it had to come back.
    while (isCurrent()) {
      try {
        if (await this.arePeersBack(wholeAt)) break;
      } catch {
        // Lost again: the next 'close' ends this loop.
      }
      await pause(RECOVERY_POLL_MS);
    }
    if (!isCurrent()) return;
    const downMs = this.clock() - (this.degradedSince ?? this.clock());
    this.degradedSince = null;
    this.recoveringLoss = null;
    this.watcher?.logger.info(
      { processId: this.presence.processId, downMs, eventsMayBeMissed },
      'redis available again: no longer degraded',
    );
    await this.watcher?.onRecovered({ eventsMayBeMissed }).catch((error: unknown) => {
      this.watcher?.logger.error(
        { task: 'presence', err: errorForLog(error) },
        'housekeeping failed',
      );
    });
  }

  private async arePeersBack(wholeAt: number): Promise<boolean> {
    const at = this.clock();
    const waiting = [...this.peers]
      .filter(([, seenAt]) => Math.max(seenAt + HEARTBEAT_TTL_MS, wholeAt + PEER_GRACE_MS) > at)
      .map(([id]) => id);
    if (waiting.length === 0) return true;
    const alive = await this.presence.processesAlive(waiting);
    for (const id of alive) this.peers.set(id, at);
    return waiting.every((id) => alive.has(id));
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
