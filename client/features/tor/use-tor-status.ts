/** The Tor status, polled every `pollMs` while mounted (spec 000 §7: the card polls every 3 s). */
import { useQuery } from '@tanstack/react-query';
import type { TorAdminStatus } from '../../../shared/protocol/http/tor.js';
import type { AdminCredential } from '../../lib/admin/admin-api.js';
import { fetchTorAdminStatus, torQueryKeys } from './tor-api.js';

export function useTorAdminStatus(credential: AdminCredential, pollMs: number) {
  return useQuery<TorAdminStatus>({
    queryKey: [...torQueryKeys.status(true), credential.kind],
    queryFn: () => fetchTorAdminStatus(credential),
    refetchInterval: pollMs,
    retry: false,
  });
}
