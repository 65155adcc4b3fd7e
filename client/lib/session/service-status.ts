/**
 * What the client knows of the service state (spec 001 §2, §4): `GET /api/service-status`,
 * polled every 30 s while operational and every 3 s while shut down, and at once when any API
 * call answers 503 (lib/http.ts announces it) or the tab regains focus. The socket notices of the
 * chat arrive sooner; this poll is what every route can rely on, sockets or not, and what keeps
 * a notice page listening after its socket gave up reconnecting.
 *
 * The return path: where the user was when the service went down, so that the notice page can
 * take them back there by itself once the service is restored. Kept in sessionStorage (this tab
 * only), because the chat's socket redirect to a notice route replaces the URL.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { PublicServiceStatus } from '../../../shared/protocol/http/admin.js';
import { apiRequest, SERVICE_UNAVAILABLE_EVENT } from '../http.js';

/**
 * `GET /api/service-status` (public). Here rather than in the admin API module, which the entry
 * must not load: it brings the key file's schema and its crypto. The answer's schema (and zod)
 * loads with the first call, not with the entry (issue 22, target 5).
 */
export function fetchPublicServiceStatus(): Promise<PublicServiceStatus> {
  const schema = import('../../../shared/protocol/http/admin.js').then(
    (schemas) => schemas.PublicServiceStatusSchema,
  );
  return apiRequest('/api/service-status', schema, { auth: false });
}

/** How often the state is asked for while the service is operational. */
export const SERVICE_STATUS_POLL_MS = 30_000;
/** How often it is asked for while the service is down: a restore is noticed within this. */
export const SERVICE_STATUS_DOWN_POLL_MS = 3_000;

export const serviceStatusKey = ['service-status'] as const;

/** The routes that are notices themselves: never wrapped, never a place to return to. */
export const NOTICE_PATHS: readonly string[] = ['/emergency-shutdown', '/maintenance-mode'];

export function isNoticePath(path: string): boolean {
  return NOTICE_PATHS.includes(path.split(/[?#]/)[0] ?? '');
}

/** The last known state; undefined until the first answer, kept through failed polls. */
export function useServiceStatus(): PublicServiceStatus | undefined {
  const queryClient = useQueryClient();
  const { data } = useQuery({
    queryKey: serviceStatusKey,
    queryFn: fetchPublicServiceStatus,
    refetchInterval: (query) =>
      query.state.data?.status === 'emergency'
        ? SERVICE_STATUS_DOWN_POLL_MS
        : SERVICE_STATUS_POLL_MS,
    refetchIntervalInBackground: true,
    refetchOnWindowFocus: true,
    retry: false,
    staleTime: 0,
  });
  useEffect(() => {
    const recheck = () => void queryClient.invalidateQueries({ queryKey: serviceStatusKey });
    window.addEventListener(SERVICE_UNAVAILABLE_EVENT, recheck);
    return () => window.removeEventListener(SERVICE_UNAVAILABLE_EVENT, recheck);
  }, [queryClient]);
  return data;
}

const RETURN_PATH_KEY = 'securechannel_return_path';

/** Remembers `path` (the current location by default) as where to return after a restore. */
export function rememberReturnPath(
  path: string = window.location.pathname + window.location.search,
): void {
  if (isNoticePath(path)) return;
  try {
    window.sessionStorage.setItem(RETURN_PATH_KEY, path);
  } catch {
    // Storage refused: the notice page returns to `/` instead.
  }
}

/** The remembered path, or null. Only same-origin paths are ever returned. */
export function storedReturnPath(): string | null {
  try {
    const path = window.sessionStorage.getItem(RETURN_PATH_KEY);
    return path !== null && path.startsWith('/') && !path.startsWith('//') ? path : null;
  } catch {
    return null;
  }
}

export function forgetReturnPath(): void {
  try {
    window.sessionStorage.removeItem(RETURN_PATH_KEY);
  } catch {
    // Nothing to forget.
  }
}
