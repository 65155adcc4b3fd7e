/**
 * Latency to this server (spec 000 §7: `GET /api/ping` is "used only to measure latency"; shown
 * by the Network Monitor, spec 000 §2): the round trip of one ping, measured every
 * LATENCY_PROBE_MS while mounted. Each probe is asked with `cache: 'no-store'`, so it is a real
 * round trip, never the browser's cache.
 */
import { useQuery } from '@tanstack/react-query';
import { LATENCY_PROBE_MS } from '../../../shared/constants.js';

/** One round trip to /api/ping, in whole milliseconds; rejects when the server does not answer. */
export async function measureLatency(
  now: () => number = () => performance.now(),
  signal?: AbortSignal,
): Promise<number> {
  const started = now();
  const response = await fetch('/api/ping', { cache: 'no-store', ...(signal ? { signal } : {}) });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`ping answered ${response.status}`);
  return Math.max(0, Math.round(now() - started));
}

/** The last measured latency in ms (null before the first answer), and whether the last failed. */
export function useLatency(enabled = true): { latencyMs: number | null; isError: boolean } {
  const query = useQuery({
    queryKey: ['latency'],
    queryFn: ({ signal }) => measureLatency(undefined, signal),
    enabled,
    refetchInterval: LATENCY_PROBE_MS,
    staleTime: 0,
    retry: false,
  });
  return { latencyMs: query.data ?? null, isError: query.isError };
}
