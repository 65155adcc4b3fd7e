/** The Key Management tab (spec 001 §2): generate a key, list and revoke registered keys. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { fetchAdminKeys } from '../../lib/admin/admin-api.js';
import { adminQueryKeys } from './admin-queries.js';
import { SECTION_TITLE } from '../../ui/admin-styles.js';
import { countKeyStates, sortKeysForDisplay } from './key-list.js';
import { KeyGenerateForm } from './KeyGenerateForm.js';
import { KeyListTable } from './KeyListTable.js';
import { AdminAlert, RefreshButton } from './AdminTable.js';

export interface KeyManagementTabProps {
  isActive: boolean;
  currentKeyId: string | null;
}

export function KeyManagementTab({ isActive, currentKeyId }: KeyManagementTabProps) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: adminQueryKeys.keys,
    queryFn: () => fetchAdminKeys({ kind: 'key-session' }),
    enabled: isActive,
    staleTime: 0,
  });
  // The list's "now" is when it was fetched: states and the summary agree with the data shown.
  const fetchedAt = new Date(query.dataUpdatedAt);
  const keys = sortKeysForDisplay(query.data?.keys ?? [], fetchedAt);
  const counts = countKeyStates(keys, fetchedAt);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: adminQueryKeys.keys });
    void queryClient.invalidateQueries({ queryKey: adminQueryKeys.audit });
  };

  return (
    <div className="space-y-5">
      <KeyGenerateForm onRegistered={refresh} />
      <section aria-labelledby="admin-keys-heading" className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div>
            <h3 id="admin-keys-heading" className={SECTION_TITLE}>
              Registered keys
            </h3>
            <p
              className="mt-1 text-[0.75rem] text-muted"
              role="status"
              data-testid="admin-key-summary"
            >
              {query.isPending
                ? 'Loading keys...'
                : `${keys.length} key${keys.length === 1 ? '' : 's'} · ${counts.active} active · ${counts.expired} expired · ${counts.revoked} revoked`}
            </p>
          </div>
          <RefreshButton isFetching={query.isFetching} onRefresh={() => void query.refetch()} />
        </div>
        {query.isError ? (
          <AdminAlert>Could not load the keys: {query.error.message}</AdminAlert>
        ) : (
          <KeyListTable
            keys={keys}
            now={fetchedAt}
            currentKeyId={currentKeyId}
            onRevoked={refresh}
          />
        )}
      </section>
    </div>
  );
}
