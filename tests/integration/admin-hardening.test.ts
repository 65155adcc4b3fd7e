/**
 * The admin password under attack (issue 15, items 1 and 8): attempts are counted before the
 * password is checked and one check per address runs at a time, so concurrent guesses check no
 * more passwords than the rule allows; a failure never lifts a lock; every admin-password route
 * shares the rule; with Redis the rule holds across processes. Failed logins are counted per
 * window in the audit log, without addresses; the admin status needs an admin credential.
 *
 * Each test speaks from its own address (X-Forwarded-For, TRUST_PROXY) so that lockouts stay apart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_LOCKOUT_MS } from '../../shared/constants.js';
import { adminToken } from '../support/keys.js';
import { deletePrefix, REDIS_TEST_URL, testPrefix } from '../support/redis.js';
import { startServer, TEST_ADMIN_PASSWORD, type TestServer } from '../support/server.js';
import { connectRedis } from '../../server/redis/connect.js';
import { HAS_REDIS } from '../support/services.js';

type Post = (path: string, body: unknown, address: string) => Promise<Response>;

function poster(baseUrl: string): Post {
  return (path, body, address) =>
    fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
      body: JSON.stringify(body),
    });
}

/** How many of `responses` show a checked wrong password (401) and how many were refused. */
function tally(statuses: number[]) {
  return {
    wrong: statuses.filter((status) => status === 401).length,
    accepted: statuses.filter((status) => status === 200).length,
    refused: statuses.filter((status) => status === 409 || status === 429).length,
  };
}

async function failedLoginRows(server: TestServer) {
  return server.database.query<{ actor: string; detail: { failures: number } }>(
    `SELECT actor, detail FROM audit_log WHERE action = 'admin.login_failed'`,
  );
}

describe('admin lockout on one process', () => {
  let server: TestServer;
  let clockOffset = 0;
  const now = () => Date.now() + clockOffset;
  let post: Post;

  beforeAll(async () => {
    server = await startServer({
      env: { TRUST_PROXY: 'true' },
      deps: { now, loginRatePerMinute: 10_000 },
    });
    post = poster(server.baseUrl);
  }, 120_000);
  afterAll(async () => {
    await server.stop();
  });

  it('checks at most three of 30 concurrent wrong passwords, and the lock then holds', async () => {
    const address = '203.0.113.10';
    const failuresBefore = (await failedLoginRows(server))[0]?.detail.failures ?? 0;
    const statuses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        post('/api/admin/authenticate', { password: `wrong-${i}` }, address).then((r) => r.status),
      ),
    );
    const counted = tally(statuses);
    expect(counted.accepted).toBe(0);
    expect(counted.wrong).toBeLessThanOrEqual(2);
    expect(counted.wrong + counted.refused).toBe(30);
    // The audit log counts the passwords actually checked: never more than the rule allows.
    const failuresAfter = (await failedLoginRows(server))[0]?.detail.failures ?? 0;
    expect(failuresAfter - failuresBefore).toBeLessThanOrEqual(3);

    // Whatever the burst left, sequential wrong passwords reach the lock within the rule.
    let status = 0;
    for (let i = 0; i < 3 && status !== 429; i += 1) {
      status = (await post('/api/admin/authenticate', { password: 'wrong' }, address)).status;
    }
    expect(status).toBe(429);
    // A failure during the lock keeps it, and the right password is refused while it lasts.
    expect((await post('/api/admin/authenticate', { password: 'wrong' }, address)).status).toBe(
      429,
    );
    const during = await post(
      '/api/admin/authenticate',
      { password: TEST_ADMIN_PASSWORD },
      address,
    );
    expect(during.status).toBe(429);
    expect(((await during.json()) as { error: string }).error).toMatch(/locked for \d+ seconds/);
    // Another address is not affected.
    expect(
      (await post('/api/admin/authenticate', { password: TEST_ADMIN_PASSWORD }, '203.0.113.11'))
        .status,
    ).toBe(200);

    clockOffset = ADMIN_LOCKOUT_MS;
    try {
      expect(
        (await post('/api/admin/authenticate', { password: TEST_ADMIN_PASSWORD }, address)).status,
      ).toBe(200);
    } finally {
      clockOffset = 0;
    }
  });

  it('applies the same lockout to emergency shutdown and restore', async () => {
    const address = '203.0.113.20';
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post(
          i % 2 === 0 ? '/api/admin/emergency-shutdown' : '/api/admin/restore-service',
          i % 2 === 0 ? { password: `wrong-${i}`, reason: 'guess' } : { password: `wrong-${i}` },
          address,
        ).then((r) => r.status),
      ),
    );
    expect(tally(statuses).accepted).toBe(0);
    expect(tally(statuses).wrong).toBeLessThanOrEqual(2);
    for (let i = 0; i < 3; i += 1)
      await post('/api/admin/restore-service', { password: 'wrong' }, address);
    // Locked by the shutdown and restore routes: the login route refuses the right password too.
    expect(
      (await post('/api/admin/authenticate', { password: TEST_ADMIN_PASSWORD }, address)).status,
    ).toBe(429);
    expect(
      (
        await post(
          '/api/admin/emergency-shutdown',
          { password: TEST_ADMIN_PASSWORD, reason: 'must stay locked' },
          address,
        )
      ).status,
    ).toBe(429);
    expect(server.serviceState.isShutDown).toBe(false);
  });

  it('counts failed logins per window in one audit row, without addresses', async () => {
    const before = (await failedLoginRows(server))[0]?.detail.failures ?? 0;
    for (const address of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
      expect((await post('/api/admin/authenticate', { password: 'nope' }, address)).status).toBe(
        401,
      );
    }
    const rows = await failedLoginRows(server);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.detail.failures).toBe(before + 3);
    expect(rows[0]?.actor).toBe('admin-password');
    const everything = JSON.stringify(
      await server.database.query('SELECT actor, action, detail FROM audit_log'),
    );
    expect(everything).not.toMatch(/198\.51\.100\.|203\.0\.113\.|127\.0\.0\.1/);
  });

  it('answers the admin status only to admins; the public state stays open', async () => {
    expect((await fetch(`${server.baseUrl}/api/admin/status`)).status).toBe(401);
    const token = await adminToken(server.baseUrl);
    const status = await fetch(`${server.baseUrl}/api/admin/status`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ status: 'operational', connections: 0 });
    const open = await fetch(`${server.baseUrl}/api/service-status`);
    expect(open.status).toBe(200);
    expect(await open.json()).toEqual({ status: 'operational', reason: null, since: null });
  });
});

describe.runIf(HAS_REDIS)('admin lockout across two processes sharing Redis', () => {
  const prefix = testPrefix();
  let first: TestServer;
  let second: TestServer;

  beforeAll(async () => {
    const env = { TRUST_PROXY: 'true', REDIS_URL: REDIS_TEST_URL, REDIS_PREFIX: prefix };
    first = await startServer({ env, deps: { loginRatePerMinute: 10_000 } });
    second = await startServer({ env, deps: { loginRatePerMinute: 10_000 } });
  }, 240_000);
  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
    const redis = await connectRedis(REDIS_TEST_URL, prefix);
    await deletePrefix(redis, prefix);
    await redis.close();
  });

  it('checks at most three of 30 concurrent wrong passwords sent to both, and the lock holds on both', async () => {
    const address = '203.0.113.30';
    const posts = [poster(first.baseUrl), poster(second.baseUrl)];
    const statuses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        posts[i % 2]!('/api/admin/authenticate', { password: `wrong-${i}` }, address).then(
          (r) => r.status,
        ),
      ),
    );
    const counted = tally(statuses);
    expect(counted.accepted).toBe(0);
    expect(counted.wrong).toBeLessThanOrEqual(2);
    const checked =
      ((await failedLoginRows(first))[0]?.detail.failures ?? 0) +
      ((await failedLoginRows(second))[0]?.detail.failures ?? 0);
    expect(checked).toBeLessThanOrEqual(3);

    let status = 0;
    for (let i = 0; i < 3 && status !== 429; i += 1) {
      const post = posts[i % 2]!;
      status = (await post('/api/admin/authenticate', { password: 'wrong' }, address)).status;
    }
    expect(status).toBe(429);
    for (const post of posts) {
      expect(
        (await post('/api/admin/authenticate', { password: TEST_ADMIN_PASSWORD }, address)).status,
      ).toBe(429);
    }
    // The lock is per address on every process.
    expect(
      (
        await posts[1]!(
          '/api/admin/authenticate',
          { password: TEST_ADMIN_PASSWORD },
          '203.0.113.31',
        )
      ).status,
    ).toBe(200);
  });
});
