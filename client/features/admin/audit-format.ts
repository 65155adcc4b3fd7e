/** How the audit log tab shows entries (GET /api/admin/audit). */
import { type AuditEntry } from '../../../shared/protocol/http/admin.js';

/** `2025-11-21 06:30:12 UTC`. */
export function formatAuditTime(at: string): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime())
    ? at
    : `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** `reason="Compromise suspected" keyId=SCK…`: the detail object on one line, keys sorted. */
export function formatAuditDetail(detail: AuditEntry['detail']): string {
  return Object.keys(detail)
    .sort()
    .map((key) => {
      const value = detail[key];
      const shown =
        typeof value === 'string'
          ? /^[\w.:@-]+$/.test(value)
            ? value
            : JSON.stringify(value)
          : JSON.stringify(value);
      return `${key}=${shown ?? 'null'}`;
    })
    .join(' ');
}

/** Tone of an action: failures and shutdowns stand out. */
export function auditActionTone(action: string): 'danger' | 'warning' | 'primary' | 'fg' {
  if (action.endsWith('_failed') || action === 'service.shutdown') return 'danger';
  if (action === 'key.revoke' || action === 'broadcast.security') return 'warning';
  if (action === 'service.restore' || action === 'admin.login') return 'primary';
  return 'fg';
}
