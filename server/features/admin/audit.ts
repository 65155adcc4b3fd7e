/** The audit log: every admin action with its time and actor, stored durably. */
import { desc, sql } from 'drizzle-orm';
import { ADMIN_FAILURE_WINDOW_MS } from '../../../shared/constants.js';
import type { AuditEntry } from '../../../shared/protocol/http/admin.js';
import type { Db } from '../../db/connect.js';
import { auditLog } from '../../db/schema.js';

/** What admin actions are called in the log. */
export type AuditAction =
  | 'admin.login'
  | 'admin.login_failed'
  | 'key.register'
  | 'key.revoke'
  | 'key.purchase'
  | 'service.shutdown'
  | 'service.restore'
  | 'broadcast.admin'
  | 'broadcast.system'
  | 'broadcast.security'
  | 'room.moderation'
  | 'tor.start'
  | 'tor.stop'
  | 'tor.restart'
  | 'tor.connect'
  | 'tor.disconnect'
  | 'tor.test-hidden-service'
  | 'tor.bridge_add'
  | 'tor.bridge_import'
  | 'tor.bridge_remove';

export interface AuditRecord {
  /** Who: `admin-password`, `admin-session` or `key:<keyId>(<username>)`; never an address. */
  actor: string;
  action: AuditAction;
  /** Never secrets; broadcast texts are kept because they were sent to everyone. */
  detail?: Record<string, unknown>;
}

export interface AuditStore {
  record(entry: AuditRecord): Promise<void>;
  /**
   * Counts one wrong admin password in the current window's row (`admin.login_failed`, detail
   * `{failures, windowMinutes}`): one row per window, no address, whatever the attempts.
   */
  recordLoginFailure(): Promise<void>;
  list(limit: number): Promise<AuditEntry[]>;
}

export function createAuditStore(db: Db, now: () => number): AuditStore {
  return {
    record: async (entry) => {
      await db.insert(auditLog).values({
        at: new Date(now()),
        actor: entry.actor,
        action: entry.action,
        detail: entry.detail ?? {},
      });
    },
    recordLoginFailure: async () => {
      const windowStart = Math.floor(now() / ADMIN_FAILURE_WINDOW_MS) * ADMIN_FAILURE_WINDOW_MS;
      const at = new Date(windowStart);
      await db
        .insert(auditLog)
        .values({
          at,
          actor: 'admin-password',
          action: 'admin.login_failed',
          detail: { failures: 1, windowMinutes: ADMIN_FAILURE_WINDOW_MS / 60_000 },
          windowKey: `admin.login_failed:${at.toISOString()}`,
        })
        .onConflictDoUpdate({
          target: auditLog.windowKey,
          set: {
            detail: sql`jsonb_set(${auditLog.detail}, '{failures}', to_jsonb(coalesce((${auditLog.detail}->>'failures')::int, 0) + 1))`,
          },
        });
    },
    list: async (limit) => {
      const rows = await db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(limit);
      return rows.map((row) => ({
        id: row.id,
        at: row.at.toISOString(),
        actor: row.actor,
        action: row.action,
        detail:
          typeof row.detail === 'object' && row.detail !== null && !Array.isArray(row.detail)
            ? (row.detail as Record<string, unknown>)
            : {},
      }));
    },
  };
}
