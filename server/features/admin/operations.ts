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
} as const;

/** Close code for sockets ended by an emergency shutdown. */
export const EMERGENCY_CLOSE_CODE = 4001;

export interface AdminOperationsDeps {
  events: ServicePublisher;
  state: ServiceStateHolder;
  audit: AuditStore;
  presence: { all(): Promise<PresenceMember[]> };
  now: () => number;
}

export class AdminOperations {
  constructor(private readonly deps: AdminOperationsDeps) {}

  /** Shuts the service down on every process; returns how many room members were connected. */
  async shutdown(reason: string, actor: string): Promise<number> {
    const timestamp = new Date(this.deps.now()).toISOString();
    const usersDisconnected = (await this.deps.presence.all()).length;
    await this.deps.state.set({ status: 'emergency', reason, since: timestamp });
    await this.deps.audit.record({ actor, action: 'service.shutdown', detail: { reason } });
    await this.deps.events.publish({ kind: 'shutdown', reason, timestamp });
    return usersDisconnected;
  }

  async restore(actor: string): Promise<void> {
    await this.deps.state.set({ status: 'operational', reason: null, since: null });
    await this.deps.audit.record({ actor, action: 'service.restore' });
    await this.deps.events.publish({ kind: 'restore', message: SERVICE_TEXT.restored });
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
