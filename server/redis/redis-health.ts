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
 */
import type { FastifyBaseLogger } from 'fastify';
import { errorForLog } from '../lib/log-error.js';
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

export interface RedisHealthWatch {
  logger: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** Runs each time the cluster is whole again after an outage (member lists to the rooms). */
  onRecovered: () => Promise<void>;
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
    const refresh = () => {
      if (this.isWhole && !this.isClosing) void this.refreshPeers().catch(() => undefined);
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
    // 1. This process: subscriptions confirmed, members and heartbeat written back.
    while (isCurrent()) {
      try {
        await this.fanout.resubscribe();
        await this.presence.restore();
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
      { processId: this.presence.processId, downMs },
      'redis available again: no longer degraded',
    );
    await this.watcher?.onRecovered().catch((error: unknown) => {
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
