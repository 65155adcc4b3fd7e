/**
 * The Tor calls (spec 000 §7, spec 001 §7), each answer parsed by its shared schema. Failures
 * become a TorApiError whose message is the server's `{error}` text, fit to show as is.
 *
 * Who acts: an admin key holder's stored session (sent by apiRequest itself), or the ten-minute
 * admin session of a password login (the chat-room admin overlay), passed as a bearer. No
 * password is ever kept or embedded here.
 */
import {
  BridgeListSchema,
  BridgeSchema,
  BridgeTestResponseSchema,
  ImportBridgesResponseSchema,
  TorActionResponseSchema,
  TorAdminStatusSchema,
  TorConnectResponseSchema,
  TorLogsSchema,
  TorStatusResponseSchema,
  type AddBridgeRequest,
  type Bridge,
  type BridgeList,
  type BridgeTestResponse,
  type ImportBridgesResponse,
  type TorActionResponse,
  type TorAdminStatus,
  type TorConnectResponse,
  type TorStatus,
} from '../../../shared/protocol/http/tor.js';
import { HttpError, apiRequest, type RequestOptions } from '../../lib/http.js';
import type { AdminCredential } from '../../lib/admin/admin-api.js';

export class TorApiError extends Error {
  override readonly name = 'TorApiError';
  constructor(
    message: string,
    readonly status: number | null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

function authOptions(credential: AdminCredential): Pick<RequestOptions, 'auth' | 'headers'> {
  return credential.kind === 'admin-session'
    ? { auth: false, headers: { authorization: `Bearer ${credential.token}` } }
    : {};
}

async function call<T>(run: () => Promise<T>, fallback: string): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof HttpError) {
      throw new TorApiError(error.serverError ?? fallback, error.status, { cause: error });
    }
    throw new TorApiError(fallback, null, { cause: error });
  }
}

/**
 * `GET /api/tor/status`; with an admin credential the admin fields come too, without one the
 * public form is asked for (no session sent).
 */
export function fetchTorStatus(credential: AdminCredential | null): Promise<TorStatus> {
  return call(
    () =>
      apiRequest(
        '/api/tor/status',
        TorStatusResponseSchema,
        credential ? authOptions(credential) : { auth: false },
      ),
    'Failed to fetch Tor status',
  );
}

/** The admin form of the status; fails when the answer lacks the admin fields. */
export function fetchTorAdminStatus(credential: AdminCredential): Promise<TorAdminStatus> {
  return call(
    () => apiRequest('/api/tor/status', TorAdminStatusSchema, authOptions(credential)),
    'Failed to fetch Tor status',
  );
}

export function connectTor(credential: AdminCredential): Promise<TorConnectResponse> {
  return call(
    () =>
      apiRequest('/api/tor/connect', TorConnectResponseSchema, {
        method: 'POST',
        body: {},
        ...authOptions(credential),
      }),
    'Tor connect failed',
  );
}

export type TorAction = 'disconnect' | 'start' | 'stop' | 'restart' | 'test-hidden-service';

export function runTorAction(
  action: TorAction,
  credential: AdminCredential,
  fallback: string,
): Promise<TorActionResponse> {
  return call(
    () =>
      apiRequest(`/api/tor/${action}`, TorActionResponseSchema, {
        method: 'POST',
        ...authOptions(credential),
      }),
    fallback,
  );
}

export function fetchTorLogs(credential: AdminCredential): Promise<string[]> {
  return call(
    async () => (await apiRequest('/api/tor/logs', TorLogsSchema, authOptions(credential))).logs,
    'Failed to fetch Tor logs',
  );
}

export function fetchBridges(credential: AdminCredential): Promise<BridgeList> {
  return call(
    () => apiRequest('/api/tor/bridges', BridgeListSchema, authOptions(credential)),
    'Failed to fetch bridges',
  );
}

export function addBridge(credential: AdminCredential, bridge: AddBridgeRequest): Promise<Bridge> {
  return call(
    () =>
      apiRequest('/api/tor/bridges', BridgeSchema, {
        method: 'POST',
        body: bridge,
        ...authOptions(credential),
      }),
    'Failed to add the bridge',
  );
}

export function importBridges(
  credential: AdminCredential,
  config: string,
): Promise<ImportBridgesResponse> {
  return call(
    () =>
      apiRequest('/api/tor/bridges/import', ImportBridgesResponseSchema, {
        method: 'POST',
        body: { config },
        ...authOptions(credential),
      }),
    'Failed to import bridges',
  );
}

export function testBridge(credential: AdminCredential, id: string): Promise<BridgeTestResponse> {
  return call(
    () =>
      apiRequest(`/api/tor/bridges/${encodeURIComponent(id)}/test`, BridgeTestResponseSchema, {
        method: 'POST',
        ...authOptions(credential),
      }),
    'Failed to test bridge connectivity',
  );
}

export async function removeBridge(credential: AdminCredential, id: string): Promise<void> {
  await call(
    () =>
      apiRequest(
        `/api/tor/bridges/${encodeURIComponent(id)}`,
        TorActionResponseSchema.pick({ success: true }),
        {
          method: 'DELETE',
          ...authOptions(credential),
        },
      ),
    'Failed to remove the bridge',
  );
}

/** TanStack Query keys of the Tor screens. */
export const torQueryKeys = {
  all: ['tor'] as const,
  status: (admin: boolean) => ['tor', 'status', admin] as const,
  logs: ['tor', 'logs'] as const,
  bridges: ['tor', 'bridges'] as const,
};
