/**
 * What an admin can do to the running service: emergency shutdown and restore, broadcasts and
 * the user list. Every action is written to the audit log. No Fastify, no sockets directly: the
 * hub is reached through the small interface below.
 */
import type { PresenceMember } from '../rooms/index.js';
import type { AuditStore } from './audit.js';
import type { ServiceStateHolder } from './service-state.js';

/** How an admin action reaches every process (server/realtime/service-events.ts). */
export interface ServicePublisher {
  publish(
    event:
      | { kind: 'shutdown'; reason: string; timestamp: string }
      | { kind: 'restore'; message: string }
      | { kind: 'broadcast'; frame: { type: string } & Record<string, unknown> },
  ): Promise<void>;
}

export const SERVICE_TEXT = {
  shutdownDone: 'Emergency shutdown executed. All secure channels closed.',
  restored: 'Service restored. Secure channels are open again.',
  unavailable: 'Service temporarily unavailable: emergency shutdown in effect',
  maintenance: 'The chat service is offline for maintenance.',
  alreadyOperational: 'Service is already operational',
  alreadyShutDown: 'Emergency shutdown already in effect. Nothing was changed.',
} as const;

/** Close code for sockets ended by an emergency shutdown. */
export const EMERGENCY_CLOSE_CODE = 4001;

export interface AdminOperationsDeps {
  events: ServicePublisher;
  state: ServiceStateHolder;
  audit: AuditStore;
  presence: { all(): Promise<PresenceMember[]> };
  now: () => number;
  /**
   * Tells this process's sockets about the shutdown and closes them; returns how many it closed.
   * Other processes close theirs when the published event reaches them.
   */
  closeLocalSockets: (reason: string, timestamp: string) => number;
  /**
   * Starts counting the sockets the other processes close for the shutdown at `timestamp`;
   * resolves with their sum (0 at once with a single process).
   */
  countRemoteClosed: (timestamp: string) => Promise<number>;
}

/** The answer of a shutdown: whether it ran, and how many sockets it closed. */
export interface ShutdownOutcome {
  changed: boolean;
  usersDisconnected: number;
}

export class AdminOperations {
  constructor(private readonly deps: AdminOperationsDeps) {}

  /**
   * Shuts the service down on every process. Idempotent: when a shutdown is already in effect
   * nothing runs again (no new reason, no second notice) and `changed` is false.
   * `usersDisconnected` counts every socket closed, room member or not, on every process.
   */
  async shutdown(reason: string, actor: string): Promise<ShutdownOutcome> {
    const timestamp = new Date(this.deps.now()).toISOString();
    const changed = await this.deps.state.transition({
      status: 'emergency',
      reason,
      since: timestamp,
    });
    if (!changed) return { changed: false, usersDisconnected: 0 };
    await this.deps.audit.record({ actor, action: 'service.shutdown', detail: { reason } });
    const local = this.deps.closeLocalSockets(reason, timestamp);
    const remote = this.deps.countRemoteClosed(timestamp);
    await this.deps.events.publish({ kind: 'shutdown', reason, timestamp });
    return { changed: true, usersDisconnected: local + (await remote) };
  }

  /**
   * Ends a shutdown on every process. Idempotent: while operational nothing is announced and
   * false is returned.
   */
  async restore(actor: string): Promise<boolean> {
    const changed = await this.deps.state.transition({
      status: 'operational',
      reason: null,
      since: null,
    });
    if (!changed) return false;
    await this.deps.audit.record({ actor, action: 'service.restore' });
    await this.deps.events.publish({ kind: 'restore', message: SERVICE_TEXT.restored });
    return true;
  }

  async broadcast(
    kind: 'admin' | 'system' | 'security',
    message: string,
    actor: string,
  ): Promise<void> {
    const timestamp = new Date(this.deps.now()).toISOString();
    await this.deps.audit.record({ actor, action: `broadcast.${kind}`, detail: { message } });
    const frame =
      kind === 'admin'
        ? { type: 'admin_message', message, timestamp }
        : {
            type: 'system_broadcast',
            message,
            level: kind === 'security' ? 'critical' : 'info',
            timestamp,
          };
    await this.deps.events.publish({ kind: 'broadcast', frame });
  }

  async listUsers(): Promise<PresenceMember[]> {
    return this.deps.presence.all();
  }
}
