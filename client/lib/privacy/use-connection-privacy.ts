/**
 * The connection privacy check (spec 000 §4, §7): asked of this server (`GET /api/privacy/check`,
 * which does the lookup, so neither the lookup key nor the user's address goes from the browser to
 * a third party), refreshed every PRIVACY_CHECK_REFRESH_MS. An onion page is Tor without asking.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PRIVACY_CHECK_REFRESH_MS } from '../../../shared/constants.js';
import { ConnectionPrivacySchema } from '../../../shared/protocol/http/privacy.js';
import { apiRequest } from '../http.js';
import {
  assessPrivacy,
  isOnionHost,
  onionResult,
  type PrivacyAssessment,
} from './connection-privacy.js';

export function useConnectionPrivacy(): PrivacyAssessment {
  const isOnion = isOnionHost(window.location.hostname);
  const [onion] = useState(() => (isOnion ? onionResult(Date.now()) : null));
  const query = useQuery({
    queryKey: ['privacy-check'],
    queryFn: ({ signal }) =>
      apiRequest('/api/privacy/check', ConnectionPrivacySchema, { auth: false, signal }),
    enabled: !isOnion,
    staleTime: PRIVACY_CHECK_REFRESH_MS,
    refetchInterval: PRIVACY_CHECK_REFRESH_MS,
    retry: 1,
  });
  if (onion) return assessPrivacy({ kind: 'done', result: onion });
  if (query.data) return assessPrivacy({ kind: 'done', result: query.data });
  if (query.isError) return assessPrivacy({ kind: 'failed' });
  return assessPrivacy({ kind: 'checking' });
}
