/**
 * Administration and service states (spec 001 §4, §6, §7, §9): the admin password's lockout and
 * sessions, emergency shutdown and restore as connected and new clients see them, admin socket
 * commands, refusals for everyone else, and the audit log.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VerifyResponseSchema } from '../../shared/protocol/http/auth.js';
import { adminToken, login, makeRegisteredKey } from '../support/keys.js';
import { startServer, TEST_ADMIN_PASSWORD, type TestServer } from '../support/server.js';
import { TestSocket } from '../support/ws-client.js';

describe('administration', () => {
  let server: TestServer;
  let clockOffset = 0;
  const sockets: TestSocket[] = [];
  const now = () => Date.now() + clockOffset;

  beforeAll(async () => {
    server = await startServer({ deps: { now, loginRatePerMinute: 1000 } });
  });
  afterAll(async () => {
    await server.stop();
  });
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.close();
    clockOffset = 0;
    if (server.serviceState.isShutDown) await server.adminOperations.restore('test-cleanup');
  });

  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${server.baseUrl}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
  const authenticate = (password: string) => post('/api/admin/authenticate', { password });

  async function member(username: string): Promise<TestSocket> {
    const socket = await TestSocket.connect(server.wsUrl());
    sockets.push(socket);
    socket.send({
      type: 'join_room',
      roomId: (await server.rooms.defaultRoom()).secureId,
      username,
    });
    await socket.nextOfType('room_joined');
    return socket;
  }

  it('locks the admin password for five minutes after three failures, counted per address', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await authenticate('wrong')).status);
    expect(statuses).toEqual([401, 401, 429]);
    const locked = await authenticate(TEST_ADMIN_PASSWORD);
    expect(locked.status).toBe(429);
    expect(((await locked.json()) as { error: string }).error).toMatch(/locked for \d+ seconds/);
    clockOffset = 5 * 60_000;
    expect((await authenticate(TEST_ADMIN_PASSWORD)).status).toBe(200);
  });

  it('forgets failures after 60 s without attempts', async () => {
    expect((await authenticate('wrong')).status).toBe(401);
    expect((await authenticate('wrong')).status).toBe(401);
    clockOffset = 61_000;
    expect((await authenticate('wrong')).status).toBe(401);
    expect((await authenticate('wrong')).status).toBe(401);
    expect((await authenticate(TEST_ADMIN_PASSWORD)).status).toBe(200);
  });

  it('ends admin sessions after ten minutes', async () => {
    const token = await adminToken(server.baseUrl);
    const keys = () =>
      fetch(`${server.baseUrl}/api/admin/keys`, { headers: { authorization: `Bearer ${token}` } });
    expect((await keys()).status).toBe(200);
    clockOffset = 10 * 60_000 + 1;
    expect((await keys()).status).toBe(401);
  });

  it('shuts the service down for connected and new clients, and restores it', async () => {
    const alice = await member('Agent21');
    const aliceClosed = alice.waitForClose();
    const shutdown = await post('/api/admin/emergency-shutdown', {
      password: TEST_ADMIN_PASSWORD,
      reason: 'Compromise suspected',
    });
    expect(shutdown.status).toBe(200);
    expect(await shutdown.json()).toMatchObject({ success: true, usersDisconnected: 1 });
    expect(await alice.nextOfType('emergency_shutdown_notice')).toMatchObject({
      reason: 'Compromise suspected',
    });
    expect(await aliceClosed).toBe(4001);

    // Every API but ping, the public service state and admin answers 503.
    expect((await fetch(`${server.baseUrl}/api/rooms`)).status).toBe(503);
    expect((await fetch(`${server.baseUrl}/api/default-room`)).status).toBe(503);
    expect((await fetch(`${server.baseUrl}/api/ping`)).status).toBe(200);
    expect(await (await fetch(`${server.baseUrl}/api/service-status`)).json()).toEqual({
      status: 'emergency',
      reason: 'Compromise suspected',
      since: expect.any(String),
    });
    // The admin view (with the connection count) needs an admin credential.
    expect((await fetch(`${server.baseUrl}/api/admin/status`)).status).toBe(401);

    // A new socket is told, stays open, and can do nothing else.
    const bob = await TestSocket.connect(server.wsUrl());
    sockets.push(bob);
    expect(await bob.nextOfType('maintenance_mode')).toBeTruthy();
    bob.send({ type: 'join_room', roomId: 'x', username: 'Agent22' });
    expect((await bob.nextOfType('error')).message).toMatch(/emergency shutdown/);

    const restore = await post('/api/admin/restore-service', { password: TEST_ADMIN_PASSWORD });
    expect(restore.status).toBe(200);
    expect(await bob.nextOfType('service_restored')).toBeTruthy();
    expect((await fetch(`${server.baseUrl}/api/rooms`)).status).toBe(200);
  });

  it('requires a reason and the admin password or an admin token', async () => {
    expect(
      (await post('/api/admin/emergency-shutdown', { password: TEST_ADMIN_PASSWORD, reason: '  ' }))
        .status,
    ).toBe(400);
    expect((await post('/api/admin/emergency-shutdown', { reason: 'no credentials' })).status).toBe(
      401,
    );
    const user = await makeRegisteredKey(server.baseUrl);
    const userToken = VerifyResponseSchema.parse(
      (await login(server.baseUrl, user)).body,
    ).sessionToken;
    expect(
      (await post('/api/admin/emergency-shutdown', { reason: 'not an admin' }, userToken)).status,
    ).toBe(401);
    expect(server.serviceState.isShutDown).toBe(false);
    const adminKey = await makeRegisteredKey(server.baseUrl, { level: 'admin' });
    const adminKeyToken = VerifyResponseSchema.parse(
      (await login(server.baseUrl, adminKey)).body,
    ).sessionToken;
    expect(
      (await post('/api/admin/emergency-shutdown', { reason: 'drill' }, adminKeyToken)).status,
    ).toBe(200);
    expect((await post('/api/admin/restore-service', {}, adminKeyToken)).status).toBe(200);
  });

  it('runs admin socket commands for admins and answers admin_error to everyone else', async () => {
    const bystander = await member('Agent23');
    const operator = await member('Agent24');
    const token = await adminToken(server.baseUrl);
    operator.send({ type: 'admin_broadcast', sessionToken: token, message: 'Maintenance at noon' });
    expect(await bystander.nextOfType('admin_message')).toMatchObject({
      message: 'Maintenance at noon',
    });
    operator.send({ type: 'security_broadcast', sessionToken: token, message: 'Rotate your keys' });
    expect(await bystander.nextOfType('system_broadcast')).toMatchObject({
      message: 'Rotate your keys',
      level: 'critical',
    });
    operator.send({ type: 'admin_list_users', sessionToken: token });
    const list = await operator.nextOfType('user_list');
    expect((list.users as { username: string }[]).map((user) => user.username)).toEqual(
      expect.arrayContaining(['Agent23', 'Agent24']),
    );

    const user = await makeRegisteredKey(server.baseUrl);
    const userToken = VerifyResponseSchema.parse(
      (await login(server.baseUrl, user)).body,
    ).sessionToken;
    for (const frame of [
      { type: 'admin_broadcast', sessionToken: userToken, message: 'hi' },
      { type: 'emergency_shutdown', sessionToken: userToken, reason: 'x' },
      { type: 'admin_list_users', sessionToken: 'made-up-token-value' },
    ]) {
      bystander.send(frame);
      expect(await bystander.nextOfType('admin_error')).toMatchObject({
        message: 'Access denied, admin privileges required',
      });
    }
    expect(server.serviceState.isShutDown).toBe(false);
  });

  it('writes every admin action to the audit log', async () => {
    await authenticate('wrong-once');
    const token = await adminToken(server.baseUrl);
    const key = await makeRegisteredKey(server.baseUrl, { username: 'audited' });
    await fetch(`${server.baseUrl}/api/admin/keys/${key.keyId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    await post('/api/admin/emergency-shutdown', { reason: 'audit drill' }, token);
    await post('/api/admin/restore-service', {}, token);
    const operator = await member('Agent25');
    operator.send({ type: 'system_message', sessionToken: token, message: 'Audit me' });
    await operator.nextOfType('system_broadcast');

    const response = await fetch(`${server.baseUrl}/api/admin/audit?limit=50`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const { entries } = (await response.json()) as {
      entries: { action: string; actor: string; detail: Record<string, unknown> }[];
    };
    const actions = entries.map((entry) => entry.action);
    for (const action of [
      'admin.login',
      'admin.login_failed',
      'key.register',
      'key.revoke',
      'service.shutdown',
      'service.restore',
      'broadcast.system',
    ]) {
      expect(actions).toContain(action);
    }
    expect(entries.find((entry) => entry.action === 'key.revoke')?.detail).toEqual({
      keyId: key.keyId,
    });
    expect(JSON.stringify(entries)).not.toContain(TEST_ADMIN_PASSWORD);
    expect((await fetch(`${server.baseUrl}/api/admin/audit`)).status).toBe(401);
  });
  it('answers a repeated shutdown and a restore while operational without acting again', async () => {
    // Issue 21 item 2: both are idempotent, announce nothing the second time, and say so.
    const listener = await member('Agent26');
    const restoreEarly = await post('/api/admin/restore-service', {
      password: TEST_ADMIN_PASSWORD,
    });
    expect(restoreEarly.status).toBe(200);
    expect(await restoreEarly.json()).toEqual({
      success: true,
      message: 'Service is already operational',
      alreadyOperational: true,
    });
    // Nobody was told "Service restored": the member's next frame is the shutdown notice.
    const first = await post('/api/admin/emergency-shutdown', {
      password: TEST_ADMIN_PASSWORD,
      reason: 'First reason',
    });
    expect(await first.json()).toMatchObject({ success: true, alreadyInEffect: false });
    const frames = await listener.nextOfType('emergency_shutdown_notice');
    expect(frames).toMatchObject({ reason: 'First reason' });
    const since = server.serviceState.current.since;

    const latecomer = await TestSocket.connect(server.wsUrl());
    sockets.push(latecomer);
    await latecomer.nextOfType('maintenance_mode');
    const again = await post('/api/admin/emergency-shutdown', {
      password: TEST_ADMIN_PASSWORD,
      reason: 'Second reason',
    });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({
      success: true,
      message: 'Emergency shutdown already in effect. Nothing was changed.',
      usersDisconnected: 0,
      alreadyInEffect: true,
    });
    expect(server.serviceState.current).toMatchObject({ reason: 'First reason', since });

    const restored = await post('/api/admin/restore-service', { password: TEST_ADMIN_PASSWORD });
    expect(await restored.json()).toMatchObject({ alreadyOperational: false });
    // The latecomer's socket stayed open through the repeated shutdown and hears the restore.
    expect(await latecomer.nextOfType('service_restored')).toBeTruthy();
  });

  it('answers a socket restore while operational to its sender only', async () => {
    const bystander = await member('Agent28');
    const operator = await member('Agent29');
    const token = await adminToken(server.baseUrl);
    operator.send({ type: 'restore_service', sessionToken: token });
    expect(await operator.nextOfType('service_restored')).toMatchObject({
      message: 'Service is already operational',
    });
    // The bystander's next service frame is the broadcast sent after: no "Service restored".
    operator.send({ type: 'admin_broadcast', sessionToken: token, message: 'After the restore' });
    const next = await bystander.next(
      (frame) => frame.type === 'service_restored' || frame.type === 'admin_message',
    );
    expect(next).toMatchObject({ type: 'admin_message', message: 'After the restore' });
  });

  it('counts every socket a shutdown closes, in a room or not', async () => {
    await member('Agent27');
    for (let i = 0; i < 2; i += 1) {
      const idle = await TestSocket.connect(server.wsUrl());
      sockets.push(idle);
    }
    const answer = await post('/api/admin/emergency-shutdown', {
      password: TEST_ADMIN_PASSWORD,
      reason: 'Count drill',
    });
    expect(await answer.json()).toMatchObject({ usersDisconnected: 3, alreadyInEffect: false });
  });

  it('registers keys during a shutdown, and answers admin auth failures as {success:false, message}', async () => {
    // Issue 21 item 5.
    const token = await adminToken(server.baseUrl);
    await post('/api/admin/emergency-shutdown', { reason: 'Register drill' }, token);
    const key = await makeRegisteredKey(server.baseUrl, { username: 'during-shutdown' });
    expect(key.username).toBe('during-shutdown');

    const wrong = await authenticate('wrong');
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({
      success: false,
      message: 'Invalid admin password',
      error: 'Invalid admin password',
    });
    const noPassword = await post('/api/admin/restore-service', {});
    expect(noPassword.status).toBe(401);
    expect(await noPassword.json()).toMatchObject({ success: false, message: 'Password required' });
    const noBearer = await fetch(`${server.baseUrl}/api/admin/keys`);
    expect(noBearer.status).toBe(401);
    expect(await noBearer.json()).toMatchObject({ success: false, message: expect.any(String) });
    const register = await fetch(`${server.baseUrl}/api/keys/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(register.status).toBe(401);
    expect(await register.json()).toMatchObject({ success: false });
  });
});
