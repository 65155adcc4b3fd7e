/** The audit log: every admin action with its time and actor, stored durably. */
import { desc } from 'drizzle-orm';
import type { AuditEntry } from '../../../shared/protocol/http/admin.js';
import type { Db } from '../../db/connect.js';
import { auditLog } from '../../db/schema.js';

/** What admin actions are called in the log. */
export type AuditAction =
  | 'admin.login'
  | 'admin.login_failed'
  | 'key.register'
  | 'key.revoke'
  | 'service.shutdown'
  | 'service.restore'
  | 'broadcast.admin'
  | 'broadcast.system'
  | 'broadcast.security'
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
  /** Who: `admin-password@<address>` or `key:<keyId>`. */
  actor: string;
  action: AuditAction;
  /** Never secrets; broadcast texts are kept because they were sent to everyone. */
  detail?: Record<string, unknown>;
}

export interface AuditStore {
  record(entry: AuditRecord): Promise<void>;
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
