/**
 * Whether this server sells keys (issue 31; `GET /api/crypto/availability`). The mode is fixed
 * at the server's start, so it is asked once per page; a purchase route that answers
 * `Key purchases are not available on this server` asks again (`invalidatePurchaseAvailability`).
 */
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { fetchPurchaseAvailability } from './purchase-api.js';

const AVAILABILITY_KEY = ['crypto-availability'] as const;

export function usePurchaseAvailability() {
  return useQuery({
    queryKey: AVAILABILITY_KEY,
    queryFn: fetchPurchaseAvailability,
    staleTime: Infinity,
    retry: 1,
  });
}

/** Asks the server again, after a purchase route said that it sells no keys. */
export function invalidatePurchaseAvailability(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: AVAILABILITY_KEY });
}
