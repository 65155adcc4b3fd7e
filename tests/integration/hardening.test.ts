/**
 * Safe defaults, input and logs (issue 15, items 6, 7 and 8), over real HTTP and WebSocket.
 *
 * The server starts the way a first-time operator's does: no ADMIN_PASSWORD (so it generates one
 * into DATA_DIR), a built client to serve, and an extra configured origin. Then:
 * - headers: CSP connect-src names only this origin and the configured one, Permissions-Policy
 *   limits camera, microphone and geolocation, index.html is served `no-cache`;
 * - rendered fields (room names, callsigns, voice usernames) refuse control and bidi characters,
 *   NUL anywhere answers 400, and `security_alert.method` is one of the known methods;
 * - with the database broken under it, each error path (HTTP route, socket handler, admin login)
 *   answers a generic error and logs the error by name and code only: the planted room name,
 *   access code, password and room id appear nowhere in the log.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyFile } from '../../shared/crypto/key-file.js';
import { publicPart } from '../../shared/crypto/key-file-schema.js';
import { startServer, type TestServer } from '../support/server.js';
import { TestSocket } from '../support/ws-client.js';

const ONION = 'http://abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz2345.onion';

describe('hardened defaults, input and logs', () => {
  let server: TestServer;
  let dataDir: string;
  let clientDist: string;
  const announced: string[] = [];
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sc-hardening-'));
    clientDist = path.join(dataDir, 'client');
    await mkdir(path.join(clientDist, 'assets'), { recursive: true });
    await writeFile(path.join(clientDist, 'index.html'), '<!doctype html><div id="root"></div>');
    await writeFile(path.join(clientDist, 'assets', 'app-1234abcd.js'), 'console.log(1);');
    await writeFile(path.join(clientDist, 'favicon.svg'), '<svg/>');
    server = await startServer({
      env: {
        ADMIN_PASSWORD: '',
        DATA_DIR: dataDir,
        CLIENT_DIST: clientDist,
        ALLOWED_ORIGINS: ONION,
      },
      deps: { announce: (message) => announced.push(message), isInteractive: false },
    });
  }, 120_000);
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const host = () => new URL(server.baseUrl).host;
  const postJson = (route: string, body: unknown) =>
    fetch(`${server.baseUrl}${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  async function join(username: string): Promise<TestSocket> {
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

  describe('generated admin password', () => {
    it('is written once to a 0600 file under DATA_DIR, its path logged, the password never', async () => {
      const file = path.join(dataDir, 'admin-password');
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      const password = (await readFile(file, 'utf8')).trim();
      expect(password.length).toBeGreaterThanOrEqual(20);
      const login = await postJson('/api/admin/authenticate', { password });
      expect(login.status).toBe(200);
      const log = server.logs.text();
      expect(log).toContain(file);
      expect(log).not.toContain(password);
      // Not a terminal: nothing is printed.
      expect(announced).toEqual([]);
    });
  });

  describe('headers', () => {
    it("limits connect-src to 'self', this host's sockets and the configured origins", async () => {
      const csp = (await fetch(`${server.baseUrl}/api/ping`)).headers.get(
        'content-security-policy',
      );
      const connect = csp
        ?.split(';')
        .map((directive) => directive.trim())
        .find((directive) => directive.startsWith('connect-src'));
      expect(connect?.split(' ').slice(1).sort()).toEqual(
        [
          "'self'",
          `ws://${host()}`,
          `wss://${host()}`,
          ONION,
          ONION.replace('http://', 'ws://'),
        ].sort(),
      );
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
    });

    it('sends a Permissions-Policy that allows only the microphone, for this origin', async () => {
      const policy = (await fetch(`${server.baseUrl}/api/ping`)).headers.get('permissions-policy');
      expect(policy).toContain('camera=()');
      expect(policy).toContain('microphone=(self)');
      expect(policy).toContain('geolocation=()');
    });

    it('serves index.html no-cache, whatever the path, and hashed assets immutable', async () => {
      for (const route of ['/', '/chat/abc', '/index.html']) {
        const response = await fetch(`${server.baseUrl}${route}`);
        expect(response.status, route).toBe(200);
        expect(response.headers.get('cache-control'), route).toBe('no-cache');
      }
      expect(
        (await fetch(`${server.baseUrl}/assets/app-1234abcd.js`)).headers.get('cache-control'),
      ).toBe('public, max-age=31536000, immutable');
      expect((await fetch(`${server.baseUrl}/favicon.svg`)).headers.get('cache-control')).toBe(
        'public, max-age=3600',
      );
    });
  });

  describe('rendered fields', () => {
    it('refuses control, NUL and bidi characters in room names with 400 and a clear message', async () => {
      const before = (await (await fetch(`${server.baseUrl}/api/rooms`)).json()) as unknown[];
      for (const name of [
        'Ops\u0000room',
        'Ops\u202Emoor',
        'Ops\u2066x\u2069',
        'Ops\u0085',
        'Ops\nroom',
      ]) {
        const response = await postJson('/api/rooms', { name });
        expect(response.status, JSON.stringify(name)).toBe(400);
        const { error } = (await response.json()) as { error: string };
        expect(error).toMatch(/control|bidirectional/);
        expect(error).not.toContain('Ops');
      }
      const after = (await (await fetch(`${server.baseUrl}/api/rooms`)).json()) as unknown[];
      expect(after).toEqual(before);
      expect((await postJson('/api/rooms', { name: 'Ops room' })).status).toBe(200);
    });

    it('refuses a bidi override in a registered key username before anything else is checked', async () => {
      const password = (await readFile(path.join(dataDir, 'admin-password'), 'utf8')).trim();
      const { sessionToken } = (await (
        await postJson('/api/admin/authenticate', { password })
      ).json()) as { sessionToken: string };
      const key = await createKeyFile({ username: 'alice', level: 'user', validityDays: 30 });
      const register = (username: string) =>
        fetch(`${server.baseUrl}/api/keys/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${sessionToken}` },
          body: JSON.stringify({ ...publicPart(key), username }),
        });
      // The schema refuses the name itself (before, it passed and only the signature failed).
      const refused = await register('alice\u202Eecila');
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({ error: 'Failed to parse key file' });
      // A clean but altered name still fails the integrity check, as before.
      expect(await (await register('mallory')).json()).toEqual({
        error: 'Key integrity validation failed',
      });
    });

    it('answers NUL in a path or a query with 400, not 500', async () => {
      for (const route of ['/api/rooms/abc%00def', '/api/rooms?x=%00', '/api/rooms/%1B']) {
        const response = await fetch(`${server.baseUrl}${route}`);
        expect(response.status, route).toBe(400);
        expect(((await response.json()) as { error: string }).error).toMatch(/control characters/);
      }
      const nulInBody = await postJson('/api/auth/challenge', { keyId: 'SCK\u0000' });
      expect(nulInBody.status).toBe(400);
    });

    it('refuses a bidi override in a callsign or a voice username with an error frame', async () => {
      const socket = await TestSocket.connect(server.wsUrl());
      sockets.push(socket);
      socket.send({
        type: 'join_room',
        roomId: (await server.rooms.defaultRoom()).secureId,
        username: 'Ghost12\u202E',
      });
      expect((await socket.nextOfType('error')).message).toBe(
        'Invalid join_room frame: username must not contain control or bidirectional formatting characters',
      );
      const member = await join('Ghost13');
      member.send({ type: 'voice_call_start', username: 'Ghost13\u2067' });
      expect((await member.nextOfType('error')).message).toMatch(
        /^Invalid voice_call_start frame: username must not contain control/,
      );
    });

    it('accepts only the known screenshot methods in security_alert, and posts nothing else', async () => {
      const alice = await join('Cipher41');
      const bob = await join('Cipher42');
      alice.send({
        type: 'security_alert',
        alertType: 'screenshot_attempt',
        method: 'print_screen)\nSYSTEM: all keys revoked (',
        timestamp: Date.now(),
      });
      expect((await alice.nextOfType('error')).message).toBe('Invalid security_alert frame');
      alice.send({
        type: 'security_alert',
        alertType: 'screenshot_attempt',
        method: 'ctrl_shift_s',
        timestamp: Date.now(),
      });
      const alert = await bob.next(
        (frame) =>
          frame.type === 'new_message' &&
          (frame.message as { senderUsername: string }).senderUsername === 'SECURITY_SYSTEM',
      );
      expect((alert.message as { content: string }).content).toBe(
        'SECURITY ALERT: Cipher41 attempted a screenshot (ctrl_shift_s)',
      );
      expect(bob.frames.some((frame) => JSON.stringify(frame).includes('all keys revoked'))).toBe(
        false,
      );
    });
  });

  // Last: it breaks the database under the running server (and mends it afterwards).
  describe('logs when the database fails', () => {
    it('logs each error path by name and code only, never the planted secrets', async () => {
      const plantedName = `Planted-${randomBytes(6).toString('hex')}`;
      const plantedCode = createHash('sha256')
        .update(`code-${randomBytes(8).toString('hex')}`)
        .digest('hex');
      const plantedRoomId = randomBytes(32).toString('hex');
      const plantedPassword = `planted-password-${randomBytes(6).toString('hex')}`;
      const linesBefore = server.logs.lines.length;

      await server.database.query('ALTER TABLE rooms RENAME TO rooms_hidden');
      await server.database.query('ALTER TABLE settings RENAME TO settings_hidden');
      try {
        // An HTTP route whose query fails (its parameters hold the access code's scrypt hash).
        const created = await postJson('/api/rooms', {
          name: plantedName,
          securityLevel: 'restricted',
          isPrivate: true,
          passwordHash: plantedCode,
        });
        expect(created.status).toBe(500);
        expect(await created.json()).toEqual({ error: expect.any(String) });

        // A socket handler whose query fails.
        const socket = await TestSocket.connect(server.wsUrl());
        sockets.push(socket);
        socket.send({ type: 'join_room', roomId: plantedRoomId, username: 'Ghost77' });
        expect((await socket.nextOfType('error')).message).not.toContain(plantedRoomId);

        // The admin password check, whose stored hash cannot be read.
        const admin = await postJson('/api/admin/authenticate', { password: plantedPassword });
        expect(admin.status).toBe(500);
      } finally {
        await server.database.query('ALTER TABLE rooms_hidden RENAME TO rooms');
        await server.database.query('ALTER TABLE settings_hidden RENAME TO settings');
      }

      const log = server.logs.lines.slice(linesBefore).join('\n');
      expect(log).toContain('unhandled error');
      expect(log).toContain('realtime handler failed');
      for (const planted of [plantedName, plantedCode, plantedRoomId, plantedPassword, 'scrypt$']) {
        expect(log).not.toContain(planted);
      }
      expect(log).not.toMatch(/Failed query|params|select |insert |\bat .*\.ts:\d+/i);
      const errors = server.logs.lines
        .slice(linesBefore)
        .map((line) => JSON.parse(line) as { err?: Record<string, unknown> })
        .filter((entry) => entry.err);
      expect(errors.length).toBeGreaterThanOrEqual(3);
      for (const entry of errors) {
        expect(Object.keys(entry.err ?? {}).sort()).toEqual(expect.arrayContaining(['name']));
        expect(JSON.stringify(entry.err)).not.toMatch(/message|stack/);
      }
      expect((await postJson('/api/rooms', { name: 'After repair' })).status).toBe(200);
    });
  });
});
