/** Key files for tests: made with the product's own code and registered through the admin API. */
import { bytesToNumbers } from '../../shared/crypto/bytes.js';
import { createKeyFile, signChallenge } from '../../shared/crypto/key-file.js';
import {
  publicPart,
  type KeyFile,
  type KeyPermissionLevel,
} from '../../shared/crypto/key-file-schema.js';
import { TEST_ADMIN_PASSWORD } from './server.js';

/**
 * The server lets one admin password check per address run at a time (a second gets 409), so
 * the helpers of one test process take turns per server.
 */
const adminLogins = new Map<string, Promise<unknown>>();

export async function adminToken(baseUrl: string, password = TEST_ADMIN_PASSWORD): Promise<string> {
  const previous = adminLogins.get(baseUrl) ?? Promise.resolve();
  const turn = previous.catch(() => undefined).then(() => authenticate(baseUrl, password));
  adminLogins.set(baseUrl, turn);
  return turn;
}

async function authenticate(baseUrl: string, password: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/admin/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password }),
  });
  if (!response.ok)
    throw new Error(`admin authenticate: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { sessionToken: string }).sessionToken;
}

export interface MakeKeyOptions {
  username?: string;
  level?: KeyPermissionLevel;
  validityDays?: number;
  now?: Date;
  /** The server's admin password, when it is not the test servers' default. */
  adminPassword?: string;
}

/** A fresh key file, registered with the server at `baseUrl`. */
export async function makeRegisteredKey(
  baseUrl: string,
  options: MakeKeyOptions = {},
): Promise<KeyFile> {
  const keyFile = await createKeyFile({
    username: options.username ?? `tester-${Math.random().toString(36).slice(2, 8)}`,
    level: options.level ?? 'user',
    validityDays: options.validityDays ?? 365,
    now: options.now,
  });
  const token = await adminToken(baseUrl, options.adminPassword);
  const response = await fetch(`${baseUrl}/api/keys/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(publicPart(keyFile)),
  });
  if (!response.ok) throw new Error(`register: ${response.status} ${await response.text()}`);
  return keyFile;
}

/** Challenge, sign, verify: the whole login. Returns the verify response's status and body. */
export async function login(
  baseUrl: string,
  keyFile: KeyFile,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const challengeResponse = await fetch(`${baseUrl}/api/auth/challenge`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ keyId: keyFile.keyId }),
  });
  if (!challengeResponse.ok) {
    return {
      status: challengeResponse.status,
      body: (await challengeResponse.json()) as Record<string, unknown>,
    };
  }
  const { challenge } = (await challengeResponse.json()) as { challenge: string };
  const signatures = await signChallenge(keyFile, challenge);
  const verify = await fetch(`${baseUrl}/api/auth/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      keyId: keyFile.keyId,
      challenge,
      dilithiumSignature: bytesToNumbers(signatures.dilithiumSignature),
      ecdsaSignature: bytesToNumbers(signatures.ecdsaSignature),
    }),
  });
  return { status: verify.status, body: (await verify.json()) as Record<string, unknown> };
}
