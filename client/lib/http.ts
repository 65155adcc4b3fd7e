/**
 * The client's HTTP rule (spec 000 §8): any non-ok answer raises an error whose message is the
 * numeric status, a colon, then the body text (or the status text when the body is empty).
 * Answers are parsed by a schema from shared/ before anyone uses them.
 */
import type { z } from 'zod';
import { STORAGE_KEYS, readStorage } from './storage-keys.js';

/** An HTTP failure: `message` follows the spec's rule; `status` and `body` are kept for callers. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    readonly body: string,
    statusText: string,
    /** The answer's `Retry-After` in whole seconds (503, 429), or null without a usable one. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(`${status}: ${body || statusText}`);
  }

  /** The `error` field of a JSON error body, when there is one. */
  get serverError(): string | null {
    try {
      const parsed: unknown = JSON.parse(this.body);
      if (
        parsed &&
        typeof parsed === 'object' &&
        'error' in parsed &&
        typeof parsed.error === 'string'
      ) {
        return parsed.error;
      }
    } catch {
      // Not JSON: no server error text.
    }
    return null;
  }
}

/** `Retry-After` as delay-seconds (the form the server sends); null when absent or a date. */
export function parseRetryAfter(value: string | null): number | null {
  if (value === null || !/^\d{1,5}$/.test(value.trim())) return null;
  return Number(value.trim());
}

/** Throws {@link HttpError} unless the response is ok. */
/**
 * Dispatched on `window` when an API call answers 503: the service may have been shut down, so
 * the service-state gate asks for the state at once (features/service-state).
 */
export const SERVICE_UNAVAILABLE_EVENT = 'securechannel:service-unavailable';

export async function throwIfNotOk(response: Response): Promise<void> {
  if (response.ok) return;
  if (response.status === 503 && typeof window !== 'undefined')
    window.dispatchEvent(new Event(SERVICE_UNAVAILABLE_EVENT));
  const body = await response.text().catch(() => '');
  throw new HttpError(
    response.status,
    body,
    response.statusText,
    parseRetryAfter(response.headers.get('retry-after')),
  );
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  /** Sends `Authorization: Bearer` with the stored session token (default true when one exists). */
  auth?: boolean;
  /** Extra request headers, e.g. `x-room-access` for calls on a locked room. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** Answers null when API calls may go out, or the reason they may not. */
export type RequestGate = () => Promise<string | null>;

let requestGate: RequestGate | null = null;

/**
 * Makes every API call wait for `gate` first: the page's check of the server's identity, so that
 * nothing is sent before it passed, nor to a server whose pin failed until the user resets it.
 */
export function setRequestGate(gate: RequestGate | null): void {
  requestGate = gate;
}

/** What the gate says now: null when calls (and the key login's socket) may go out. */
export function requestGateRefusal(): Promise<string | null> {
  return requestGate ? requestGate() : Promise.resolve(null);
}

/**
 * Calls the API and parses the JSON answer with `schema`. The schema may still be loading (a
 * promise): the entry's calls fetch their schemas, and zod, in parallel with the request, so that
 * zod is not in the entry (issue 22, target 5).
 */
export async function apiRequest<S extends z.ZodType>(
  path: string,
  schema: S | Promise<S>,
  options: RequestOptions = {},
): Promise<z.infer<S>> {
  // Awaited after the answer; a schema that failed to load fails the call there.
  if (schema instanceof Promise) schema.catch(() => undefined);
  const refusal = await requestGateRefusal();
  if (refusal !== null) throw new Error(refusal);
  const headers: Record<string, string> = { ...options.headers, accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const token = options.auth === false ? null : readStorage(STORAGE_KEYS.session);
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(path, {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    credentials: 'same-origin',
    signal: options.signal,
  });
  await throwIfNotOk(response);
  const json: unknown = await response.json();
  return (await schema).parse(json);
}
