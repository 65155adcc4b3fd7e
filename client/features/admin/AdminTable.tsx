/** Pieces the admin panel's list tabs share: the table head, the refresh button, the load error. */
import type { ReactNode } from 'react';
import { Bracketed, DIALOG_BUTTON_SECONDARY } from '../../ui/TerminalDialog.js';

export interface AdminColumn {
  label: string;
  /** Read by screen readers only (an actions column). */
  isHidden?: boolean;
  /** Extra classes of the header cell (width, alignment). */
  className?: string;
}

/** The head row of an admin table: small upper-case column names. */
export function AdminTableHead({
  columns,
  className,
}: {
  columns: readonly (string | AdminColumn)[];
  className?: string;
}) {
  return (
    <thead className={className}>
      <tr className="border-b border-border text-[0.75rem] tracking-[0.2em] text-muted uppercase">
        {columns.map((column, index) => {
          const {
            label,
            isHidden = false,
            className: extra = '',
          } = typeof column === 'string' ? { label: column } : column;
          const isLast = index === columns.length - 1;
          return (
            <th
              key={label}
              scope="col"
              className={['py-2 font-normal', isLast ? '' : 'pr-3', extra]
                .filter(Boolean)
                .join(' ')}
            >
              {isHidden ? <span className="sr-only">{label}</span> : label}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}

/** REFRESH, which reads LOADING... while the list is fetched again. */
export function RefreshButton({
  isFetching,
  onRefresh,
  testId,
}: {
  isFetching: boolean;
  onRefresh: () => void;
  testId?: string;
}) {
  return (
    <button
      type="button"
      className={DIALOG_BUTTON_SECONDARY}
      disabled={isFetching}
      onClick={onRefresh}
      data-testid={testId}
    >
      <Bracketed>{isFetching ? 'LOADING...' : 'REFRESH'}</Bracketed>
    </button>
  );
}

/** Why a list could not be loaded or changed, announced at once. */
export function AdminAlert({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="border border-danger/70 bg-danger/10 p-3 text-xs text-danger">
      {children}
    </p>
  );
}
