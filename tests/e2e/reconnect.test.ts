/**
 * Faults are ordinary: browsers come back by themselves after a server restart (issue 35).
 *
 * Scenario: the server runs as its own process on PostgreSQL. alice and bob, anonymous visitors,
 * are in the public channel. The server stops (SIGTERM: sockets close with 1001) and starts again
 * on the same port. Meanwhile every readout says the link is down (header status, the E2E field
 * of the status bar, the header's security indicator, the banner), the header counts down to
 * the next try ("RECONNECTING IN 2 s…", then 1 s), and a message alice types is
 * held as pending, not sent. Without a click, both browsers reconnect and rejoin the room, the
 * held message goes out encrypted, and a message sent after the return reaches bob encrypted.
 *
 * Then: alice, a key holder, kicks bob from her channel; the server restarts; alice comes back,
 * bob does not (his banner says disconnected, with no try planned, and his browser opens no new
 * socket) until he presses RECONNECT.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RoomSchema } from '../../shared/protocol/http/rooms.js';
import { createThrowawayPostgres } from '../support/database.js';
import { login, makeRegisteredKey } from '../support/keys.js';
import { startServerProcess, type ServerProcess } from '../support/processes.js';
import { TEST_ADMIN_PASSWORD } from '../support/server.js';
import { HAS_POSTGRES } from '../support/services.js';
import { ChatPageObject } from './pages/chat-page.js';
import { waitForKeysFrom } from './pages/security-status.js';
import { type Actor, launchBrowser, newActor } from './support/browser.js';

const PUBLIC = { securechannel_access_mode: 'public' };
/** A restart, a few backoff rounds and a rejoin fit well within this. */
const RETURN_TIMEOUT_MS = 90_000;

describe.runIf(HAS_POSTGRES)('reconnecting after a server restart', () => {
  let server: ServerProcess | null = null;
  let browser: Browser;
  let env: Record<string, string>;
  let port = '';
  let dropDatabase: () => Promise<void> = async () => undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sc-reconnect-'));
  const actors: Actor[] = [];

  beforeAll(async () => {
    const database = await createThrowawayPostgres();
    dropDatabase = database.drop;
    env = {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      CLIENT_DIST: 'dist/client',
      ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
      LOG_LEVEL: 'info',
    };
    server = await startServerProcess(env, 100_000);
    port = new URL(server.url).port;
    browser = await launchBrowser();
  }, 120_000);

  afterEach(async () => {
    for (const actor of actors.splice(0)) await actor.context.close();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop('SIGKILL');
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const baseUrl = () => `http://127.0.0.1:${port}`;

  /** Stops the server (SIGTERM, as an operator's restart does); resolves once it has exited. */
  async function stopServer(): Promise<void> {
    await server?.stop('SIGTERM');
    server = null;
  }

  /** Starts it again on the same port and database. */
  async function startAgain(): Promise<void> {
    server = await startServerProcess({ ...env, PORT: port }, 100_000);
  }

  async function enter(
    name: string,
    storage: Record<string, string>,
    url: string,
  ): Promise<{ actor: Actor; chat: ChatPageObject; sockets: () => number }> {
    const actor = await newActor(browser, name, { storage });
    actors.push(actor);
    let opened = 0;
    actor.page.on('websocket', (socket) => {
      if (socket.url().endsWith('/chat-ws')) opened += 1;
    });
    await actor.page.goto(url);
    const chat = new ChatPageObject(actor.page);
    await chat.waitUntilJoined();
    return { actor, chat, sockets: () => opened };
  }

  /** Connected and in the room: the header counts the nodes again. */
  async function waitUntilBack(chat: ChatPageObject): Promise<void> {
    await chat
      .connectionStatus()
      .filter({ hasText: /^\d+ nodes? active$/ })
      .waitFor({ timeout: RETURN_TIMEOUT_MS });
  }

  /** Every readout of `page` says the link is down or coming back, none says ACTIVE. */
  async function expectDownReadouts(page: Page): Promise<void> {
    const down = /RECONNECTING|DISCONNECTED|CONNECTION_LOST/;
    await page.getByTestId('connection-status').filter({ hasText: down }).waitFor();
    await page.getByTestId('e2e-state').filter({ hasText: down }).waitFor();
    const indicator = page.locator('[data-testid="security-indicator"][data-variant="full"]');
    await indicator.filter({ hasText: /E2E: (RECONNECTING|DISCONNECTED)/ }).waitFor();
    await page.getByTestId('connection-banner').waitFor();
    expect(await indicator.textContent()).not.toContain('ACTIVE');
    expect(await page.getByTestId('e2e-state').textContent()).not.toContain('ACTIVE');
  }

  /**
   * The header's "RECONNECTING IN n s…" counts down while a try waits: some reading of 2 s or
   * more is followed by one a second less. The waits are jittered below 1, 2, 4, 8… s, so the
   * first waits of 2 s or more come within a few tries.
   */
  async function seesRetryCountdownTick(page: Page): Promise<void> {
    await page.waitForFunction(
      () => {
        const text = document.querySelector('[data-testid="connection-status"]')?.textContent;
        const seconds = /^RECONNECTING IN (\d+) s/.exec(text ?? '')?.[1];
        const seen = window as unknown as { countdownReadings?: number[] };
        const readings = (seen.countdownReadings ??= []);
        if (seconds === undefined) {
          readings.length = 0;
          return false;
        }
        const reading = Number(seconds);
        if (readings.at(-1) !== reading) readings.push(reading);
        const previous = readings.at(-2);
        return previous !== undefined && previous >= 2 && reading === previous - 1;
      },
      undefined,
      { polling: 100, timeout: 45_000 },
    );
  }

  it(
    'does not bring back a member who was kicked, until he presses RECONNECT',
    { timeout: 240_000 },
    async () => {
      const suffix = Date.now().toString(36).slice(-5);
      const aliceKey = await makeRegisteredKey(baseUrl(), { username: `alice${suffix}` });
      const token = (await login(baseUrl(), aliceKey)).body.sessionToken as string;
      const created = RoomSchema.parse(
        await (
          await fetch(`${baseUrl()}/api/rooms`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: JSON.stringify({ name: `ops-${suffix}` }),
          })
        ).json(),
      );
      const roomUrl = `${baseUrl()}/chat/${created.secureId}`;
      const { chat: alice } = await enter(
        'alice',
        { securechannel_access_mode: 'authenticated', securechannel_session: token },
        roomUrl,
      );
      const {
        actor: bobActor,
        chat: bob,
        sockets: bobSockets,
      } = await enter('bob', PUBLIC, roomUrl);
      const bobName = (await bob.callsign().textContent())?.trim() ?? '';

      // alice's browser lets /kick leave the page once her role in the room has arrived (it answers
      // the command on screen before that): she tries again until bob is removed.
      const removed = bobActor.page.getByText('REMOVED FROM CHANNEL').first();
      for (let attempt = 0; attempt < 6; attempt += 1) {
        await alice.send(`/kick ${bobName}`);
        const isRemoved = await removed
          .waitFor({ timeout: 5_000 })
          .then(() => true)
          .catch(() => false);
        if (isRemoved) break;
      }
      await removed.waitFor();
      const socketsBefore = bobSockets();

      await stopServer();
      // No try is planned for bob: the banner says disconnected, not reconnecting.
      const banner = bobActor.page.getByTestId('connection-banner');
      await banner.waitFor();
      expect(await banner.getAttribute('data-state')).toBe('disconnected');
      expect(await bob.connectionStatus().textContent()).toBe('CONNECTION_LOST');

      await startAgain();
      await waitUntilBack(alice);
      // alice's browser is back in the room; bob's has not opened a single socket meanwhile.
      expect(bobSockets()).toBe(socketsBefore);
      expect(await banner.getAttribute('data-state')).toBe('disconnected');

      // The manual RECONNECT still works: a new socket, and the banner goes.
      await bob.reconnect();
      await banner.waitFor({ state: 'detached', timeout: 30_000 });
      expect(bobSockets()).toBe(socketsBefore + 1);
    },
  );

  it('brings alice and bob back to their room without a click, and their messages leave encrypted', async () => {
    const { actor: aliceActor, chat: alice } = await enter('alice', PUBLIC, `${baseUrl()}/`);
    const room = new URL(aliceActor.page.url()).pathname;
    const { actor: bobActor, chat: bob } = await enter('bob', PUBLIC, `${baseUrl()}${room}`);
    await waitForKeysFrom(bobActor.page, alice);

    await stopServer();
    await expectDownReadouts(aliceActor.page);
    await expectDownReadouts(bobActor.page);
    await aliceActor.page
      .getByTestId('connection-status')
      .filter({ hasText: /^RECONNECTING/ })
      .waitFor();
    await seesRetryCountdownTick(aliceActor.page);

    // Typed while the link is down: held, never offered in clear, not sent.
    const held = `held while down ${Date.now().toString(36)}`;
    await alice.send(held);
    const pending = aliceActor.page.getByTestId('pending-message').filter({ hasText: held });
    await pending.waitFor();
    expect(await pending.getAttribute('data-state')).toBe('waiting');
    expect(await pending.getByTestId('pending-send-in-clear').count()).toBe(0);

    await startAgain();
    await waitUntilBack(alice);
    await waitUntilBack(bob);
    expect(new URL(aliceActor.page.url()).pathname).toBe(room);
    expect(new URL(bobActor.page.url()).pathname).toBe(room);
    await alice.systemLine(/RECONNECTED: /).waitFor();
    await bob.systemLine(/RECONNECTED: /).waitFor();
    await alice.connectionBanner().waitFor({ state: 'detached' });
    expect(await bob.connectionBanner().count()).toBe(0);
    await aliceActor.page.getByTestId('e2e-state').filter({ hasText: 'ACTIVE' }).waitFor();

    // The held message left once the keys were agreed again, encrypted.
    await pending.waitFor({ state: 'detached', timeout: RETURN_TIMEOUT_MS });
    const echoed = alice.message(held);
    await echoed.waitFor();
    expect(await echoed.getByTestId('plaintext-tag').count()).toBe(0);

    // A message sent after the return reaches bob encrypted.
    await waitForKeysFrom(bobActor.page, alice);
    const text = `after the restart ${Date.now().toString(36)}`;
    await alice.send(text);
    const received = bob.message(text);
    await received.waitFor();
    expect(await received.getByTestId('plaintext-tag').count()).toBe(0);
    expect(await received.getByTestId('message-encryption').textContent()).toMatch(
      /^\[[A-Za-z0-9-]+\]$/,
    );
  });
});
