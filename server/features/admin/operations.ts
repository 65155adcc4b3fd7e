/**
 * What an admin can do to the running service: emergency shutdown and restore, broadcasts and
 * the user list. Every action is written to the audit log. No Fastify, no sockets directly: the
 * hub is reached through the small interface below.
 */
import type { PresenceMember } from '../rooms/index.js';
import type { AuditStore } from './audit.js';
import type { ServiceStateHolder } from './service-state.js';

export interface ServiceHub {
  /** Sends a frame to every open socket; returns how many got it. */
  broadcastAll(frame: { type: string } & Record<string, unknown>): number;
  /** Closes every socket; returns how many were closed. */
  closeAll(code: number, reason: string): void;
  connectionCount(): number;
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
  hub: ServiceHub;
  state: ServiceStateHolder;
  audit: AuditStore;
  presence: { all(): Promise<PresenceMember[]> };
  now: () => number;
}

export class AdminOperations {
  constructor(private readonly deps: AdminOperationsDeps) {}

  async shutdown(reason: string, actor: string): Promise<number> {
    const timestamp = new Date(this.deps.now()).toISOString();
    await this.deps.state.set({ status: 'emergency', reason, since: timestamp });
    await this.deps.audit.record({ actor, action: 'service.shutdown', detail: { reason } });
    const usersDisconnected = this.deps.hub.connectionCount();
    this.deps.hub.broadcastAll({ type: 'emergency_shutdown_notice', reason, timestamp });
    this.deps.hub.closeAll(EMERGENCY_CLOSE_CODE, 'Emergency shutdown');
    return usersDisconnected;
  }

  async restore(actor: string): Promise<void> {
    await this.deps.state.set({ status: 'operational', reason: null, since: null });
    await this.deps.audit.record({ actor, action: 'service.restore' });
    this.deps.hub.broadcastAll({ type: 'service_restored', message: SERVICE_TEXT.restored });
  }

  async broadcast(
    kind: 'admin' | 'system' | 'security',
    message: string,
    actor: string,
  ): Promise<number> {
    const timestamp = new Date(this.deps.now()).toISOString();
    await this.deps.audit.record({ actor, action: `broadcast.${kind}`, detail: { message } });
    if (kind === 'admin')
      return this.deps.hub.broadcastAll({ type: 'admin_message', message, timestamp });
    return this.deps.hub.broadcastAll({
      type: 'system_broadcast',
      message,
      level: kind === 'security' ? 'critical' : 'info',
      timestamp,
    });
  }

  async listUsers(): Promise<PresenceMember[]> {
    return this.deps.presence.all();
  }
}
