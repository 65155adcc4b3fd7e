/** The Audit Log tab: GET /api/admin/audit, newest first (time, actor, action, detail). */
import { useQuery } from '@tanstack/react-query';
import { fetchAuditLog } from '../../lib/admin/admin-api.js';
import { adminQueryKeys } from './admin-queries.js';
import { SECTION_TITLE } from '../../ui/admin-styles.js';
import { auditActionTone, formatAuditDetail, formatAuditTime } from './audit-format.js';
import { AdminAlert, AdminTableHead, RefreshButton } from './AdminTable.js';

/** Entries fetched per load. */
export const AUDIT_PAGE_SIZE = 100;

const TONE_CLASS = {
  danger: 'text-danger',
  warning: 'text-warning',
  primary: 'text-primary',
  fg: 'text-fg',
} as const;

export function AuditLogTab({ isActive }: { isActive: boolean }) {
  const query = useQuery({
    queryKey: adminQueryKeys.audit,
    queryFn: () => fetchAuditLog({ kind: 'key-session' }, AUDIT_PAGE_SIZE),
    enabled: isActive,
    staleTime: 0,
  });
  const entries = query.data ?? [];

  return (
    <section aria-labelledby="admin-audit-heading" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h3 id="admin-audit-heading" className={SECTION_TITLE}>
            Audit log
          </h3>
          <p className="mt-1 text-[0.75rem] text-muted" role="status">
            {query.isPending
              ? 'Loading the audit log...'
              : `Latest ${entries.length} entries, newest first`}
          </p>
        </div>
        <RefreshButton isFetching={query.isFetching} onRefresh={() => void query.refetch()} />
      </div>
      {query.isError ? (
        <AdminAlert>Could not load the audit log: {query.error.message}</AdminAlert>
      ) : null}
      {entries.length > 0 ? (
        <div className="max-h-[28rem] overflow-auto">
          <table
            className="w-full min-w-[44rem] border-collapse text-left text-xs"
            data-testid="admin-audit-table"
          >
            <caption className="sr-only">Audit log</caption>
            <AdminTableHead
              className="sticky top-0 bg-surface"
              columns={['Time', 'Actor', 'Action', 'Detail']}
            />
            <tbody>
              {entries.map((entry) => (
                <tr
                  key={entry.id}
                  className="border-b border-border/50 align-top"
                  data-testid="admin-audit-row"
                >
                  <td className="py-1.5 pr-3 whitespace-nowrap text-muted">
                    {formatAuditTime(entry.at)}
                  </td>
                  <td className="max-w-[14rem] py-1.5 pr-3 break-all text-fg">{entry.actor}</td>
                  <td
                    className={`py-1.5 pr-3 whitespace-nowrap ${TONE_CLASS[auditActionTone(entry.action)]}`}
                  >
                    {entry.action}
                  </td>
                  <td className="py-1.5 break-all text-muted">{formatAuditDetail(entry.detail)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
