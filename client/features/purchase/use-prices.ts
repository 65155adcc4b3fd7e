/** Prices from this server, refreshed every 60 s (spec 001 §7, §9); never from a third party. */
import { useQuery } from '@tanstack/react-query';
import { PRICE_REFRESH_MS } from '../../../shared/constants.js';
import { fetchPrices } from './purchase-api.js';

export function usePrices() {
  return useQuery({
    queryKey: ['crypto-prices'],
    queryFn: fetchPrices,
    refetchInterval: PRICE_REFRESH_MS,
    staleTime: PRICE_REFRESH_MS,
  });
}
