/**
 * Key registration and challenge–response login over HTTP (DESIGN.md "Login"; spec 000 §5, §7).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesToNumbers } from '../../shared/crypto/bytes.js';
import { signChallenge } from '../../shared/crypto/key-file.js';
import { publicPart, serializeKeyFile } from '../../shared/crypto/key-file-schema.js';
import { TEXT } from '../../shared/protocol/errors.js';
import { SessionResponseSchema, VerifyResponseSchema } from '../../shared/protocol/http/auth.js';
import { adminToken, login, makeRegisteredKey } from '../support/keys.js';
import { startServer, type TestServer } from '../support/server.js';

const DAY = 24 * 60 * 60 * 1000;

describe('key login', () => {
  let server: TestServer;
  let clockOffset = 0;
  const now = () => Date.now() + clockOffset;

  beforeAll(async () => {
    server = await startServer({ deps: { now, loginRatePerMinute: 1000 } });
  });
  afterAll(async () => {
    await server.stop();
  });

  const url = (path: string) => `${server.baseUrl}${path}`;
  const postJson = (path: string, body: unknown, token?: string) =>
    fetch(url(path), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
  const session = async (token: string) =>
    SessionResponseSchema.parse(
      await (
        await fetch(url('/api/auth/session'), { headers: { authorization: `Bearer ${token}` } })
      ).json(),
    );

  it('logs a registered key in with both signatures and opens a session', async () => {
    const key = await makeRegisteredKey(server.baseUrl, { username: 'alice' });
    const result = await login(server.baseUrl, key);
    expect(result.status).toBe(200);
    const body = VerifyResponseSchema.parse(result.body);
    expect(body.user).toMatchObject({
      keyId: key.keyId,
      username: 'alice',
      permissions: { level: 'user', capabilities: ['chat', 'upload'] },
    });
    expect(body.user.secureId).toBe(`SCK_${key.keyId.slice(3, 11).toUpperCase()}`);
    expect(await session(body.sessionToken)).toMatchObject({
      valid: true,
      user: { keyId: key.keyId },
    });
    // Only the token's hash is stored.
    const rows = await server.database.query<{ token_hash: string }>(
      'SELECT token_hash FROM sessions',
    );
    expect(rows.map((row) => row.token_hash)).not.toContain(body.sessionToken);
  });

  it('refuses a wrong signature', async () => {
    const key = await makeRegisteredKey(server.baseUrl);
    const other = await makeRegisteredKey(server.baseUrl);
    const { challenge } = (await (
      await postJson('/api/auth/challenge', { keyId: key.keyId })
    ).json()) as { challenge: string };
    const signatures = await signChallenge(other, challenge);
    const response = await postJson('/api/auth/verify', {
      keyId: key.keyId,
      challenge,
      dilithiumSignature: bytesToNumbers(signatures.dilithiumSignature),
      ecdsaSignature: bytesToNumbers(signatures.ecdsaSignature),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'Signature verification failed' });
  });

  it('refuses a valid ML-DSA signature paired with a bad ECDSA signature', async () => {
    const key = await makeRegisteredKey(server.baseUrl);
    const { challenge } = (await (
      await postJson('/api/auth/challenge', { keyId: key.keyId })
    ).json()) as { challenge: string };
    const signatures = await signChallenge(key, challenge);
    const ecdsa = bytesToNumbers(signatures.ecdsaSignature);
    ecdsa[10] = ecdsa[10]! ^ 1;
    const response = await postJson('/api/auth/verify', {
      keyId: key.keyId,
      challenge,
      dilithiumSignature: bytesToNumbers(signatures.dilithiumSignature),
      ecdsaSignature: ecdsa,
    });
    expect(response.status).toBe(401);
  });

  it('reads a verify body in any JSON form, and words a bad one as the schema does', async () => {
    const key = await makeRegisteredKey(server.baseUrl);
    const signedBody = async () => {
      const { challenge } = (await (
        await postJson('/api/auth/challenge', { keyId: key.keyId })
      ).json()) as { challenge: string };
      const signatures = await signChallenge(key, challenge);
      return {
        keyId: key.keyId,
        challenge,
        dilithiumSignature: bytesToNumbers(signatures.dilithiumSignature),
        ecdsaSignature: bytesToNumbers(signatures.ecdsaSignature),
      };
    };
    const postText = (text: string) =>
      fetch(url('/api/auth/verify'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: text,
      });
    // A byte written as 12.0 is valid JSON for 12: the body goes the ordinary way, and logs in.
    const body = await signedBody();
    const first = body.dilithiumSignature[0]!;
    const text = JSON.stringify(body).replace(
      `"dilithiumSignature":[${first},`,
      `"dilithiumSignature":[${first}.0,`,
    );
    expect(text).toContain(`[${first}.0,`);
    expect((await postText(text)).status).toBe(200);
    // Refusals name the field, whichever way the body was read.
    const refused = await signedBody();
    for (const bad of [
      { ...refused, dilithiumSignature: [256, ...refused.dilithiumSignature.slice(1)] },
      { ...refused, dilithiumSignature: refused.dilithiumSignature.slice(1) },
    ]) {
      const response = await postText(JSON.stringify(bad));
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: `${TEXT.invalidRequest}: dilithiumSignature`,
      });
    }
    // The challenge was not used up by the refusals.
    expect((await postText(JSON.stringify(refused))).status).toBe(200);
  });

  it('accepts a challenge only once', async () => {
    const key = await makeRegisteredKey(server.baseUrl);
    const { challenge } = (await (
      await postJson('/api/auth/challenge', { keyId: key.keyId })
    ).json()) as { challenge: string };
    const signatures = await signChallenge(key, challenge);
    const body = {
      keyId: key.keyId,
      challenge,
      dilithiumSignature: bytesToNumbers(signatures.dilithiumSignature),
      ecdsaSignature: bytesToNumbers(signatures.ecdsaSignature),
    };
    expect((await postJson('/api/auth/verify', body)).status).toBe(200);
    const replay = await postJson('/api/auth/verify', body);
    expect(replay.status).toBe(401);
    expect(await replay.json()).toEqual({ error: 'Invalid or expired challenge' });
  });

  it('refuses a challenge older than two minutes', async () => {
    const key = await makeRegisteredKey(server.baseUrl);
    const { challenge } = (await (
      await postJson('/api/auth/challenge', { keyId: key.keyId })
    ).json()) as { challenge: string };
    const signatures = await signChallenge(key, challenge);
    clockOffset = 2 * 60 * 1000 + 1;
    try {
      const response = await postJson('/api/auth/verify', {
        keyId: key.keyId,
        challenge,
        dilithiumSignature: bytesToNumbers(signatures.dilithiumSignature),
        ecdsaSignature: bytesToNumbers(signatures.ecdsaSignature),
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: 'Invalid or expired challenge' });
    } finally {
      clockOffset = 0;
    }
  });

  it('refuses an expired key and ends its session', async () => {
    const key = await makeRegisteredKey(server.baseUrl, { validityDays: 1 });
    const { body } = await login(server.baseUrl, key);
    const token = VerifyResponseSchema.parse(body).sessionToken;
    clockOffset = 2 * DAY;
    try {
      expect((await session(token)).valid).toBe(false);
      const result = await login(server.baseUrl, key);
      expect(result).toEqual({ status: 401, body: { error: 'Key has expired' } });
    } finally {
      clockOffset = 0;
    }
  });

  it('refuses an unknown key', async () => {
    const response = await postJson('/api/auth/challenge', { keyId: `SCK${'0'.repeat(32)}` });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'Key not registered' });
  });

  it('revokes a key: its sessions end and it can no longer log in', async () => {
    const key = await makeRegisteredKey(server.baseUrl);
    const token = VerifyResponseSchema.parse((await login(server.baseUrl, key)).body).sessionToken;
    const admin = await adminToken(server.baseUrl);
    const revoke = await fetch(url(`/api/admin/keys/${key.keyId}`), {
      method: 'DELETE',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(revoke.status).toBe(200);
    expect(await revoke.json()).toMatchObject({ success: true, sessionsEnded: 1 });
    expect((await session(token)).valid).toBe(false);
    expect(await login(server.baseUrl, key)).toEqual({
      status: 401,
      body: { error: 'Key has been revoked' },
    });
  });

  it('gives the level on record, not the level a file claims', async () => {
    const key = await makeRegisteredKey(server.baseUrl, { level: 'user' });
    const forged = {
      ...key,
      permissions: {
        ...key.permissions,
        level: 'admin' as const,
        capabilities: ['admin' as const, 'chat' as const],
      },
    };
    const result = await login(server.baseUrl, forged);
    expect(VerifyResponseSchema.parse(result.body).user.permissions).toEqual({
      level: 'user',
      capabilities: ['chat', 'upload'],
    });
    const token = VerifyResponseSchema.parse(result.body).sessionToken;
    expect(
      (await fetch(url('/api/admin/keys'), { headers: { authorization: `Bearer ${token}` } }))
        .status,
    ).toBe(403);
  });

  it('lets an admin key do what the admin session does', async () => {
    const key = await makeRegisteredKey(server.baseUrl, { level: 'admin' });
    const token = VerifyResponseSchema.parse((await login(server.baseUrl, key)).body).sessionToken;
    const response = await fetch(url('/api/admin/keys'), {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    const { keys } = (await response.json()) as { keys: { keyId: string }[] };
    expect(keys.map((k) => k.keyId)).toContain(key.keyId);
  });

  it('ends a session on logout', async () => {
    const key = await makeRegisteredKey(server.baseUrl);
    const token = VerifyResponseSchema.parse((await login(server.baseUrl, key)).body).sessionToken;
    expect((await postJson('/api/auth/logout', {}, token)).status).toBe(200);
    expect(await session(token)).toEqual({ valid: false, user: null });
    expect(await session('not-a-real-token-value')).toEqual({ valid: false, user: null });
  });

  it('lists registered users to key holders only', async () => {
    const key = await makeRegisteredKey(server.baseUrl, { username: 'bob' });
    const token = VerifyResponseSchema.parse((await login(server.baseUrl, key)).body).sessionToken;
    expect((await fetch(url('/api/auth/registered-users'))).status).toBe(401);
    const users = (await (
      await fetch(url('/api/auth/registered-users'), {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as {
      keyId: string;
      secureId: string;
      normalizedSecureId: string;
    }[];
    const bob = users.find((user) => user.keyId === key.keyId);
    expect(bob).toMatchObject({
      username: 'bob',
      secureId: `SCK_${key.keyId.slice(3, 11).toUpperCase()}`,
    });
    expect(bob?.normalizedSecureId).toBe(`SCK_${key.keyId.slice(3, 11).toLowerCase()}`);
  });
});

describe('key registration', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  const register = (body: BodyInit, headers: Record<string, string>) =>
    fetch(`${server.baseUrl}/api/keys/register`, { method: 'POST', headers, body });
  const keyCount = async () =>
    Number(
      (await server.database.query<{ n: string }>('SELECT count(*)::text AS n FROM keys'))[0]?.n,
    );

  it('refuses registration without an admin bearer token', async () => {
    const { createKeyFile } = await import('../../shared/crypto/key-file.js');
    const key = await createKeyFile({ username: 'mallory', level: 'admin' });
    const before = await keyCount();
    const anonymous = await register(JSON.stringify(publicPart(key)), {
      'content-type': 'application/json',
    });
    expect(anonymous.status).toBe(401);
    const user = await makeRegisteredKey(server.baseUrl);
    const userToken = VerifyResponseSchema.parse(
      (await login(server.baseUrl, user)).body,
    ).sessionToken;
    const asUser = await register(JSON.stringify(publicPart(key)), {
      'content-type': 'application/json',
      authorization: `Bearer ${userToken}`,
    });
    expect(asUser.status).toBe(403);
    expect(await keyCount()).toBe(before + 1);
  });

  it('refuses private keys, in JSON and in a multipart file, and stores nothing', async () => {
    const { createKeyFile } = await import('../../shared/crypto/key-file.js');
    const key = await createKeyFile({ username: 'careless' });
    const token = await adminToken(server.baseUrl);
    const before = await keyCount();
    const json = await register(JSON.stringify(key), {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
    });
    expect(json.status).toBe(400);
    expect(await json.json()).toEqual({ error: 'Private keys must never be sent to the server' });
    const form = new FormData();
    form.append('keyFile', new Blob([serializeKeyFile(key)]), 'careless.sck');
    const multipart = await register(form as unknown as BodyInit, {
      authorization: `Bearer ${token}`,
    });
    expect(multipart.status).toBe(400);
    expect(await keyCount()).toBe(before);
  });

  it('registers the public part sent as a multipart keyFile', async () => {
    const { createKeyFile } = await import('../../shared/crypto/key-file.js');
    const key = await createKeyFile({ username: 'carol', level: 'observer' });
    const token = await adminToken(server.baseUrl);
    const form = new FormData();
    form.append('keyFile', new Blob([JSON.stringify(publicPart(key))]), 'carol.sck');
    const response = await register(form as unknown as BodyInit, {
      authorization: `Bearer ${token}`,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      success: true,
      keyId: key.keyId,
      username: 'carol',
      level: 'observer',
    });
    expect((await login(server.baseUrl, key)).status).toBe(200);
  });

  it('refuses a tampered file, an unparseable file and a duplicate', async () => {
    const { createKeyFile } = await import('../../shared/crypto/key-file.js');
    const key = await createKeyFile({ username: 'dave' });
    const token = await adminToken(server.baseUrl);
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
    const tampered = await register(
      JSON.stringify({ ...publicPart(key), username: 'eve' }),
      headers,
    );
    expect(tampered.status).toBe(400);
    expect(await tampered.json()).toEqual({ error: 'Key integrity validation failed' });
    const form = new FormData();
    form.append('keyFile', new Blob(['{not json']), 'dave.sck');
    const garbage = await register(form as unknown as BodyInit, {
      authorization: `Bearer ${token}`,
    });
    expect(await garbage.json()).toEqual({ error: 'Failed to parse key file' });
    expect((await register(JSON.stringify(publicPart(key)), headers)).status).toBe(200);
    const duplicate = await register(JSON.stringify(publicPart(key)), headers);
    expect(duplicate.status).toBe(409);
  });

  it('stores no private key material', async () => {
    const columns = await server.database.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'keys'`,
    );
    expect(
      columns.map((c) => c.column_name).filter((name) => /private|secret/i.test(name)),
    ).toEqual([]);
  });
});

describe('login rate limits', () => {
  it('limits challenges per address', async () => {
    const server = await startServer({ deps: { loginRatePerMinute: 5 } });
    try {
      const key = await makeRegisteredKey(server.baseUrl);
      const ask = (keyId: string) =>
        fetch(`${server.baseUrl}/api/auth/challenge`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ keyId }),
        });
      const statuses = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await ask(key.keyId)).status);
      expect(statuses).toEqual([200, 200, 200, 200]);
      expect((await ask(`SCK${'1'.repeat(32)}`)).status).toBe(401);
      expect((await ask(`SCK${'2'.repeat(32)}`)).status).toBe(429);
    } finally {
      await server.stop();
    }
  }, 120_000);

  // Issue 15, item 5: key ids are public. Counting challenge requests per key let anyone block a
  // key holder's logins; the per-key limit now counts failed verifications per key and address.
  it('counts failed verifications per key and address, so a stranger cannot block the holder', async () => {
    const server = await startServer({
      env: { TRUST_PROXY: 'true' },
      deps: {
        loginRatePerMinute: 1000,
        keyLoginFailuresPerWindow: 3,
        // Ten verifications at once from one address: past the default queue bound of 8 per
        // visitor (tests/integration/login-admission.test.ts covers that bound).
        loginVerification: { maxPendingPerVisitor: 16 },
      },
    });
    try {
      const key = await makeRegisteredKey(server.baseUrl);
      const from = (address: string) => ({
        'content-type': 'application/json',
        'x-forwarded-for': address,
      });
      const challengeFor = async (address: string) => {
        const response = await fetch(`${server.baseUrl}/api/auth/challenge`, {
          method: 'POST',
          headers: from(address),
          body: JSON.stringify({ keyId: key.keyId }),
        });
        return response;
      };
      const verifyFrom = async (address: string, signed: boolean) => {
        const { challenge } = (await (await challengeFor(address)).json()) as { challenge: string };
        const signatures = await signChallenge(key, challenge);
        if (!signed) signatures.ecdsaSignature[0] = (signatures.ecdsaSignature[0] ?? 0) ^ 1;
        const response = await fetch(`${server.baseUrl}/api/auth/verify`, {
          method: 'POST',
          headers: from(address),
          body: JSON.stringify({
            keyId: key.keyId,
            challenge,
            dilithiumSignature: bytesToNumbers(signatures.dilithiumSignature),
            ecdsaSignature: bytesToNumbers(signatures.ecdsaSignature),
          }),
        });
        return response.status;
      };

      // The stranger asks for many challenges for the holder's key: none is refused.
      const asked = await Promise.all(
        Array.from({ length: 40 }, async () => (await challengeFor('203.0.113.66')).status),
      );
      expect(asked.every((status) => status === 200)).toBe(true);

      // Ten concurrent forged verifications: at most three are checked, the rest refused.
      const forged = await Promise.all(
        Array.from({ length: 10 }, () => verifyFrom('203.0.113.66', false)),
      );
      expect(forged.filter((status) => status === 401).length).toBe(3);
      expect(forged.filter((status) => status === 429).length).toBe(7);
      expect(await verifyFrom('203.0.113.66', true)).toBe(429);

      // The holder, from their own address, logs in as often as they like: successes do not count.
      for (let i = 0; i < 5; i += 1) expect(await verifyFrom('198.51.100.7', true)).toBe(200);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
