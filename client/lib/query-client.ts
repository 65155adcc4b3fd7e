/**
 * Data-fetching defaults of spec 000 §9: no retries, no polling, no refetch on focus, data never
 * stale. Errors follow the HTTP rule of lib/http.ts.
 */
import { QueryClient } from '@tanstack/react-query';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: false,
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
      },
      mutations: { retry: false },
    },
  });
}
