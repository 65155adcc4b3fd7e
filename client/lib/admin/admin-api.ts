/**
 * The admin calls of spec 001 §7, each answer parsed by its shared schema, each failure turned
 * into an {@link AdminApiError} whose message is the spec's text (§8) and fit to show as is.
 *
 * Two kinds of admin credential exist (spec 001 §6):
 * - a key holder whose key is admin level: the stored bearer session token, which `apiRequest`
 *   sends by itself (the admin panel);
 * - the admin password, exchanged by {@link authenticateAdmin} for a ten-minute admin session
 *   token (the emergency panel and the maintenance console). That token lives in memory only
 *   (`admin-session.ts`), never in web storage.
 */
import { publicPart, keyFileName, type KeyFile } from '../../../shared/crypto/key-file-schema.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import {
  AuditLogSchema,
  EmergencyShutdownResponseSchema,
  RestoreServiceResponseSchema,
  ServiceStatusSchema,
  type AuditEntry,
  type ServiceStatus,
} from '../../../shared/protocol/http/admin.js';
import {
  AdminAuthenticateResponseSchema,
  AdminKeyListSchema,
  RegisterKeyResponseSchema,
  RevokeKeyResponseSchema,
  type AdminKeyList,
  type RegisterKeyResponse,
} from '../../../shared/protocol/http/auth.js';
import { HttpError, apiRequest, throwIfNotOk, type RequestOptions } from '../http.js';
import { STORAGE_KEYS, readStorage } from '../storage-keys.js';

/** A failed admin call: `message` is the text to show; `status` is the HTTP status, if any. */
export class AdminApiError extends Error {
  override readonly name = 'AdminApiError';
  constructor(
    message: string,
    readonly status: number | null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** The server refused because of the admin lockout (HTTP 429). */
  get isLockedOut(): boolean {
    return this.status === 429;
  }
}

/**
 * Who an admin call acts as: the admin session token of a password login, or the key holder's
 * stored session (sent by `apiRequest` itself).
 */
export type AdminCredential = { kind: 'admin-session'; token: string } | { kind: 'key-session' };

/** The request options that carry `credential`. */
function authOptions(credential: AdminCredential): Pick<RequestOptions, 'auth' | 'headers'> {
  return credential.kind === 'admin-session'
    ? { auth: false, headers: { authorization: `Bearer ${credential.token}` } }
    : {};
}

/** The server's `{error}` text, or the client's HTTP rule text (`status: body`) when none. */
function failureDetail(error: unknown): string {
  if (error instanceof HttpError) return error.serverError ?? error.message;
  return error instanceof Error && error.message !== '' ? error.message : 'Request failed';
}

function statusOf(error: unknown): number | null {
  return error instanceof HttpError ? error.status : null;
}

/** An admin session: the token and when the server ends it. */
export interface AdminSessionGrant {
  sessionToken: string;
  /** Milliseconds since the epoch, from the server's `expiresAt`. */
  expiresAt: number;
}

/**
 * `POST /api/admin/authenticate`. Failure texts (spec 001 §8): the server's message (wrong
 * password, lockout with its remaining seconds), else 'Authentication failed' for any other
 * refusal, else 'Authentication error occurred' when the server could not be reached.
 */
export async function authenticateAdmin(password: string): Promise<AdminSessionGrant> {
  try {
    const answer = await apiRequest('/api/admin/authenticate', AdminAuthenticateResponseSchema, {
      method: 'POST',
      body: { password },
      auth: false,
    });
    return { sessionToken: answer.sessionToken, expiresAt: Date.parse(answer.expiresAt) };
  } catch (error) {
    if (error instanceof HttpError) {
      throw new AdminApiError(error.serverError ?? TEXT.adminAuthenticationFailed, error.status, {
        cause: error,
      });
    }
    throw new AdminApiError(TEXT.adminAuthenticationError, null, { cause: error });
  }
}

/** `POST /api/admin/emergency-shutdown`; failure text 'Emergency shutdown failed: {message}'. */
export async function emergencyShutdown(
  reason: string,
  credential: AdminCredential,
): Promise<{ message: string; usersDisconnected: number; alreadyInEffect: boolean }> {
  try {
    return await apiRequest('/api/admin/emergency-shutdown', EmergencyShutdownResponseSchema, {
      method: 'POST',
      body: { reason },
      ...authOptions(credential),
    });
  } catch (error) {
    throw new AdminApiError(
      `${TEXT.emergencyShutdownFailed}: ${failureDetail(error)}`,
      statusOf(error),
      { cause: error },
    );
  }
}

/** `POST /api/admin/restore-service`; failure text 'Service restore failed: {message}'. */
export async function restoreService(
  credential: AdminCredential,
): Promise<{ message: string; alreadyOperational: boolean }> {
  try {
    return await apiRequest('/api/admin/restore-service', RestoreServiceResponseSchema, {
      method: 'POST',
      body: {},
      ...authOptions(credential),
    });
  } catch (error) {
    throw new AdminApiError(
      `${TEXT.serviceRestoreFailed}: ${failureDetail(error)}`,
      statusOf(error),
      { cause: error },
    );
  }
}

/** `GET /api/admin/status` (admin): operational or emergency, and the open connections. */
export function fetchServiceStatus(credential: AdminCredential): Promise<ServiceStatus> {
  return apiRequest('/api/admin/status', ServiceStatusSchema, authOptions(credential));
}

/** `GET /api/service-status`: operational or emergency; public, so no credential. */
export { fetchPublicServiceStatus } from '../session/service-status.js';

/** `GET /api/admin/audit?limit=`: newest first. */
export async function fetchAuditLog(
  credential: AdminCredential,
  limit = 100,
): Promise<AuditEntry[]> {
  const answer = await apiRequest(`/api/admin/audit?limit=${limit}`, AuditLogSchema, {
    ...authOptions(credential),
  });
  return answer.entries;
}

/** `GET /api/admin/keys` (bearer). */
export function fetchAdminKeys(credential: AdminCredential): Promise<AdminKeyList> {
  return apiRequest('/api/admin/keys', AdminKeyListSchema, authOptions(credential));
}

/** `DELETE /api/admin/keys/{keyId}`; failure text 'Could not revoke the key' plus the reason. */
export async function revokeKey(
  keyId: string,
  credential: AdminCredential,
): Promise<{ sessionsEnded: number }> {
  try {
    return await apiRequest(
      `/api/admin/keys/${encodeURIComponent(keyId)}`,
      RevokeKeyResponseSchema,
      { method: 'DELETE', ...authOptions(credential) },
    );
  } catch (error) {
    throw new AdminApiError(failureDetail(error), statusOf(error), { cause: error });
  }
}

/**
 * `POST /api/keys/register` as multipart field `keyFile`: a file named after the username that
 * holds ONLY the public part. The private keys never leave the browser (the server refuses them
 * anyway). Failure text: the server's error or 'Key registration failed'.
 */
export async function registerKeyPublicPart(
  keyFile: KeyFile,
  credential: AdminCredential,
): Promise<RegisterKeyResponse> {
  const form = new FormData();
  const body = new Blob([JSON.stringify(publicPart(keyFile))], { type: 'application/json' });
  form.append('keyFile', body, keyFileName(keyFile.username));
  const token =
    credential.kind === 'admin-session' ? credential.token : readStorage(STORAGE_KEYS.session);
  try {
    const response = await fetch('/api/keys/register', {
      method: 'POST',
      headers: token ? { authorization: `Bearer ${token}`, accept: 'application/json' } : {},
      body: form,
      credentials: 'same-origin',
    });
    await throwIfNotOk(response);
    return RegisterKeyResponseSchema.parse(await response.json());
  } catch (error) {
    const text = error instanceof HttpError ? error.serverError : null;
    throw new AdminApiError(text ?? TEXT.registrationFailed, statusOf(error), { cause: error });
  }
}
