/** The Audit Log tab: GET /api/admin/audit, newest first (time, actor, action, detail). */
import { useQuery } from '@tanstack/react-query';
import { Bracketed, DIALOG_BUTTON_SECONDARY } from '../rooms/TerminalDialog.js';
import { fetchAuditLog } from './admin-api.js';
import { adminQueryKeys } from './admin-queries.js';
import { SECTION_TITLE } from './admin-styles.js';
import { auditActionTone, formatAuditDetail, formatAuditTime } from './audit-format.js';

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
          <p className="mt-1 text-[0.7rem] text-muted" role="status">
            {query.isPending
              ? 'Loading the audit log...'
              : `Latest ${entries.length} entries, newest first`}
          </p>
        </div>
        <button
          type="button"
          className={DIALOG_BUTTON_SECONDARY}
          disabled={query.isFetching}
          onClick={() => void query.refetch()}
        >
          <Bracketed>{query.isFetching ? 'LOADING...' : 'REFRESH'}</Bracketed>
        </button>
      </div>
      {query.isError ? (
        <p role="alert" className="border border-danger/70 bg-danger/10 p-3 text-xs text-danger">
          Could not load the audit log: {query.error.message}
        </p>
      ) : null}
      {entries.length > 0 ? (
        <div className="max-h-[28rem] overflow-auto">
          <table
            className="w-full min-w-[44rem] border-collapse text-left text-xs"
            data-testid="admin-audit-table"
          >
            <caption className="sr-only">Audit log</caption>
            <thead className="sticky top-0 bg-surface">
              <tr className="border-b border-border text-[0.65rem] tracking-[0.2em] text-muted uppercase">
                <th scope="col" className="py-2 pr-3 font-normal">
                  Time
                </th>
                <th scope="col" className="py-2 pr-3 font-normal">
                  Actor
                </th>
                <th scope="col" className="py-2 pr-3 font-normal">
                  Action
                </th>
                <th scope="col" className="py-2 font-normal">
                  Detail
                </th>
              </tr>
            </thead>
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
