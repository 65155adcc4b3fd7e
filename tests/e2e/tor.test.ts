/**
 * Tor in the browser (spec 000 §2, §4, §5, §8; spec 001 §2, §4).
 *
 * tor itself: TOR_BIN points at the fake tor of tests/fixtures/fake-tor (a local control port and
 * onion hostname, no network), because the browser test runs outside a network namespace; the
 * real tor binary is driven by tests/integration/tor/tor-daemon.test.ts inside one.
 *
 * Scenario: alice holds an admin key. In the admin panel's Tor Network tab tor is stopped; she
 * starts it and sees it running with its flags and onion address and log lines, then stops it.
 * Dave, another admin key holder, opens Tor Admin from the chat's More options (it is offered to
 * admin key holders only); a wrong password is
 * refused and cleared, the admin password unlocks the overlay; he connects (Connecting, then
 * Connected with circuits), imports bridges ('Bridges Imported'), an import without a valid line
 * says 'Import Failed', the Add dialog without an address says 'Invalid Bridge Configuration',
 * and TOR DISCONNECT takes the card back to Disconnected.
 */
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { TOR_TEXT } from '../../shared/protocol/http/tor.js';
import { VerifyResponseSchema } from '../../shared/protocol/http/auth.js';
import { login, makeRegisteredKey } from '../support/keys.js';
import { TEST_ADMIN_PASSWORD } from '../support/server.js';
import { AdminPanelObject } from './pages/admin.js';
import { ChatPageObject } from './pages/chat-page.js';
import { TorOverlayObject, TorTabObject } from './pages/tor.js';
import { browserSuite, newActor } from './support/browser.js';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const FAKE_TOR = path.resolve(import.meta.dirname, '../fixtures/fake-tor/fake-tor.mjs');
const SCREENSHOTS = process.env.TOR_SCREENSHOT_DIR ?? null;
const THEME = process.env.TOR_SCREENSHOT_THEME ?? 'classic';

describe('Tor in the browser', async () => {
  const suite = browserSuite({
    env: {
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'sc-tor-e2e-')),
      TOR_BIN: FAKE_TOR,
      TOR_SOCKS_PORT: String(await freePort()),
      TOR_CONTROL_PORT: String(await freePort()),
    },
  });
  const shot = async (page: Page, name: string) => {
    if (SCREENSHOTS)
      await page.screenshot({ path: path.join(SCREENSHOTS, `${THEME}-${name}.png`) });
  };

  it('starts and stops tor from the admin Tor tab', { timeout: 300_000 }, async () => {
    const key = await makeRegisteredKey(suite.server.baseUrl, {
      username: 'alice',
      level: 'admin',
    });
    const token = VerifyResponseSchema.parse(
      (await login(suite.server.baseUrl, key)).body,
    ).sessionToken;
    const alice = await newActor(suite.browser, 'alice', {
      storage: {
        securechannel_access_mode: 'authenticated',
        securechannel_session: token,
        'secure-channel-theme': THEME,
      },
    });
    suite.actors.push(alice);
    await alice.page.goto(`${suite.server.baseUrl}/`);
    const chat = new ChatPageObject(alice.page);
    await chat.waitUntilJoined();
    await chat.send('/admin');
    const admin = new AdminPanelObject(alice.page);
    await admin.waitUntilOpen();
    // The status is held back at first: until it comes, the badge says it is checking, not
    // that tor is stopped.
    let releaseStatus = () => {};
    const statusHeld = new Promise<void>((resolve) => (releaseStatus = resolve));
    await alice.page.route('**/api/tor/status', async (route) => {
      await statusHeld;
      await route.continue();
    });
    await admin.openTab('tor');
    const tab = new TorTabObject(alice.page);
    await tab.runningBadge().getByText('Checking').waitFor();
    expect(await tab.flag('running').textContent()).toBe('running: —');
    expect(
      await tab
        .root()
        .getByText('Circuits')
        .locator('xpath=following-sibling::dd[1]')
        .textContent(),
    ).toBe('—');
    await shot(alice.page, 'admin-tor-tab-checking');
    // Released, the route lets this and every later status request through at once.
    releaseStatus();

    await tab.runningBadge().getByText('Stopped').waitFor();
    expect(await tab.flag('running').textContent()).toBe('running: false');
    expect(await tab.root().getByTestId('tor-config').textContent()).toMatch(
      /SOCKS port\d+.*reject/,
    );

    await tab.click('start');
    // The tab refreshes 2 s after start (spec 001 §4).
    await tab.runningBadge().getByText('Running').waitFor();
    await tab.flag('controlPortOpen').getByText('controlPortOpen: true').waitFor();
    await tab.flag('hiddenServiceReady').getByText('hiddenServiceReady: true').waitFor();
    expect(await tab.onionAddress().textContent()).toMatch(/^[a-z2-7]{56}\.onion$/);
    await tab
      .logs()
      .getByText(/Bootstrapped 0%/)
      .waitFor();
    await shot(alice.page, 'admin-tor-tab-running');

    await tab.click('stop');
    await tab.runningBadge().getByText('Stopped').waitFor();
    expect(await tab.flag('running').textContent()).toBe('running: false');
    expect(alice.errors).toEqual([]);
  });

  it(
    'unlocks the chat-room admin overlay with the server, connects, manages bridges and disconnects',
    { timeout: 300_000 },
    async () => {
      // The overlay is offered to admin key holders only (issue 33); it still asks for the
      // admin password.
      const daveKey = await makeRegisteredKey(suite.server.baseUrl, {
        username: 'dave',
        level: 'admin',
      });
      const daveToken = VerifyResponseSchema.parse(
        (await login(suite.server.baseUrl, daveKey)).body,
      ).sessionToken;
      const dave = await newActor(suite.browser, 'dave', {
        storage: {
          securechannel_access_mode: 'authenticated',
          securechannel_session: daveToken,
          'secure-channel-theme': THEME,
        },
      });
      suite.actors.push(dave);
      await dave.page.goto(`${suite.server.baseUrl}/`);
      await new ChatPageObject(dave.page).waitUntilJoined();
      const overlay = new TorOverlayObject(dave.page);
      await overlay.open();

      await overlay.authenticate('not the password');
      // The alert region is always there (a live region); wait for the refusal in it.
      await overlay.root().getByRole('alert').filter({ hasText: /\S/ }).waitFor();
      expect(await overlay.root().getByLabel('Admin password').inputValue()).toBe('');
      await shot(dave.page, 'overlay-password-refused');
      await overlay.authenticate(TEST_ADMIN_PASSWORD);
      await overlay.root().getByTestId('tor-overlay-state').getByText('UNLOCKED').waitFor();
      await overlay.state().getByText('Disconnected').waitFor();

      await overlay.root().getByRole('button', { name: 'Connect', exact: true }).click();
      await overlay.state().getByText('Connecting').waitFor();
      await overlay.root().getByRole('progressbar').waitFor();
      await overlay.state().getByText('Connected').waitFor({ timeout: 20_000 });
      await overlay.root().getByTestId('tor-circuits').getByText('2').waitFor();
      // The onion service tests itself through tor once a circuit is up: nobody presses TOR TEST.
      await overlay.root().getByText('Reachable', { exact: true }).waitFor({ timeout: 20_000 });

      // Import: good, commented and bad lines.
      await overlay.bridgeCard().getByRole('button', { name: 'Import' }).click();
      const importDialog = dave.page.getByTestId('import-bridges-dialog');
      await importDialog
        .getByLabel('Bridge lines')
        .fill(
          `# bridges from a friend\nobfs4 192.0.2.10:443 ${'A'.repeat(40)} cert=abc iat-mode=0\nnot a bridge\nsnowflake 192.0.2.3:80 ${'B'.repeat(40)}\n`,
        );
      await shot(dave.page, 'import-bridges-dialog');
      await importDialog.getByRole('button', { name: 'Import' }).click();
      // Exact: a toast's text is also read out by its live region, as one longer string.
      await dave.page.getByText(TOR_TEXT.bridgesImported, { exact: true }).waitFor();
      await overlay.bridgeCard().getByText('192.0.2.10:443').waitFor();
      await overlay.bridgeCard().getByText('192.0.2.3:80').waitFor();
      await shot(dave.page, 'overlay-connected');

      await overlay.bridgeCard().getByRole('button', { name: 'Import' }).click();
      await importDialog.getByLabel('Bridge lines').fill('# nothing\nvanilla 1.2.3.4:5 x\n');
      await importDialog.getByRole('button', { name: 'Import' }).click();
      await dave.page.getByText(TOR_TEXT.importFailedTitle, { exact: true }).waitFor();
      await dave.page.getByText(TOR_TEXT.noValidBridges, { exact: true }).waitFor();
      await importDialog.getByRole('button', { name: 'Cancel' }).click();

      await overlay.bridgeCard().getByRole('button', { name: 'Add' }).click();
      const addDialog = dave.page.getByTestId('add-bridge-dialog');
      await addDialog.getByRole('button', { name: 'Add bridge' }).click();
      await dave.page.getByText(TOR_TEXT.invalidBridgeTitle, { exact: true }).waitFor();
      await dave.page.getByText(TOR_TEXT.addressAndFingerprintRequired, { exact: true }).waitFor();
      await shot(dave.page, 'add-bridge-dialog');
      await addDialog.getByRole('button', { name: 'Cancel' }).click();

      // Importing bridges restarted tor: it is connected again once it has bootstrapped, a few
      // seconds later on a loaded machine. Ask until the status says so.
      await expect
        .poll(
          async () => {
            await overlay.command('TOR STATUS');
            return (await overlay.output().textContent()) ?? '';
          },
          { timeout: 30_000, interval: 1_000 },
        )
        .toMatch(/state=connected running=true circuits=2/);
      // The restarted tor's first circuit tested the onion service again (spec 001 §3: the
      // console reads connected, bandwidth and hiddenServiceReachable).
      await expect
        .poll(
          async () => {
            await overlay.command('TOR STATUS');
            return (await overlay.output().textContent()) ?? '';
          },
          { timeout: 30_000, interval: 1_000 },
        )
        .toMatch(/onion service self-test: reachable \(checked \d+ s ago\)/);
      expect(await overlay.output().textContent()).toMatch(/hiddenServiceReachable=true/);
      await overlay.command('TOR DISCONNECT');
      await overlay.state().getByText('Disconnected').waitFor();
      await overlay.output().getByText('[TOR] Disconnected from the Tor network').waitFor();
      // The wrong password's 401 is the one error the browser logs (a refused resource).
      expect(dave.errors.filter((text) => !/status of 401/.test(text))).toEqual([]);
    },
  );
});
