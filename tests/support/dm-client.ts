/**
 * The browser's DmClient, running in Node against a test server: the same class the page uses,
 * with the HTTP calls made by `fetch` under the key holder's bearer token instead of the page's
 * `apiRequest`, and in-memory pins, verified marks and counters. `fetcher` lets a test put a
 * hostile relay between the client and the real server (rewrite any answer).
 */
import { DmClient } from '../../client/features/dm/dm-client.js';
import { createDmApi, type ApiRequester } from '../../client/features/dm/dm-api.js';
import {
  MemoryCounterStore,
  MemoryVerifiedStore,
} from '../../client/features/dm/dm-local-stores.js';
import { MemoryPinStore } from '../../client/features/e2ee/identity-trust.js';
import { HttpError } from '../../client/lib/http.js';
import type { KeyFile } from '../../shared/crypto/key-file-schema.js';
import { VerifyResponseSchema } from '../../shared/protocol/http/auth.js';
import { login } from './keys.js';

export type Fetcher = (url: string, init: RequestInit) => Promise<Response>;

/** `apiRequest`'s contract (spec 000 §8 errors, schema-parsed answers) over plain fetch. */
export function bearerRequester(
  baseUrl: string,
  token: string,
  fetcher: Fetcher = (url, init) => fetch(url, init),
): ApiRequester {
  return async (path, schema, options = {}) => {
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Bearer ${token}`,
    };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetcher(`${baseUrl}${path}`, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    if (!response.ok) {
      throw new HttpError(response.status, await response.text(), response.statusText);
    }
    return schema.parse(await response.json());
  };
}

export interface NodeDmHolder {
  key: KeyFile;
  token: string;
  client: DmClient;
  pins: MemoryPinStore;
  verified: MemoryVerifiedStore;
}

/** Logs `key` in and gives it a DmClient; `now` defaults to the real clock. */
export async function dmHolder(
  baseUrl: string,
  key: KeyFile,
  options: { fetcher?: Fetcher; now?: () => number; pins?: MemoryPinStore } = {},
): Promise<NodeDmHolder> {
  const token = VerifyResponseSchema.parse((await login(baseUrl, key)).body).sessionToken;
  const pins = options.pins ?? new MemoryPinStore();
  const verified = new MemoryVerifiedStore();
  const client = new DmClient({
    api: createDmApi(bearerRequester(baseUrl, token, options.fetcher)),
    keyFile: key,
    pins,
    verified,
    counters: new MemoryCounterStore(),
    now: options.now ?? (() => Date.now()),
  });
  return { key, token, client, pins, verified };
}
