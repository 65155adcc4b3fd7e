/**
 * What every visitor sees of Tor, connection privacy and latency, and the landing card's key check
 * (issue 37 items 3, 4, 5, 6).
 *
 * tor is the fake of tests/fixtures/fake-tor (a local control port and onion hostname, no
 * network), connected through the admin API. No lookup service and no exit list are configured.
 *
 * Scenario: erin, an anonymous visitor, sees on the landing page and in the chat's status bar the
 * onion address with a COPY control while the onion service is up, and copying it says 'Copied!';
 * the details panel says which privacy checks were not made; the Network Monitor shows the latency
 * to the server. frank picks a tampered key file on the landing card: it is refused at once.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { TOR_TEXT } from '../../shared/protocol/http/tor.js';
import { serializeKeyFile } from '../../shared/crypto/key-file-schema.js';
import { makeRegisteredKey } from '../support/keys.js';
import { TEST_ADMIN_PASSWORD } from '../support/server.js';
import { freePort } from '../support/test-services.js';
import { ChatPageObject } from './pages/chat-page.js';
import { LandingPageObject } from './pages/landing-page.js';
import { SecurityStatusObject } from './pages/security-status.js';
import { browserSuite, newActor } from './support/browser.js';

const FAKE_TOR = path.resolve(import.meta.dirname, '../fixtures/fake-tor/fake-tor.mjs');
const SCREENSHOTS = process.env.TOR_SCREENSHOT_DIR ?? null;
const THEMES = ['classic', 'matrix'] as const;

describe('Tor, connection privacy and latency for every visitor', async () => {
  const suite = browserSuite({
    env: {
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'sc-visitor-privacy-e2e-')),
      TOR_BIN: FAKE_TOR,
      TOR_SOCKS_PORT: String(await freePort()),
      TOR_CONTROL_PORT: String(await freePort()),
      TRUST_PROXY: 'loopback',
    },
  });
  const shot = async (page: Page, theme: string, name: string) => {
    if (SCREENSHOTS)
      await page.screenshot({ path: path.join(SCREENSHOTS, `${theme}-${name}.png`) });
  };
  let onionAddress = '';

  beforeAll(async () => {
    const base = suite.server.baseUrl;
    const { sessionToken } = (await (
      await fetch(`${base}/api/admin/authenticate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ password: TEST_ADMIN_PASSWORD }),
      })
    ).json()) as { sessionToken: string };
    const connected = await fetch(`${base}/api/tor/connect`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sessionToken}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(connected.status).toBe(200);
    // Poll until connected (expect.poll is for tests only).
    const deadline = Date.now() + 20_000;
    for (;;) {
      const status = (await (await fetch(`${base}/api/tor/status`)).json()) as {
        connected: boolean;
      };
      if (status.connected) break;
      if (Date.now() > deadline) throw new Error('tor did not connect');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    onionAddress = (
      (await (await fetch(`${base}/api/tor/status`)).json()) as {
        onionAddress: string;
      }
    ).onionAddress;
    expect(onionAddress).toMatch(/^[a-z2-7]{56}\.onion$/);
  });

  for (const theme of THEMES) {
    it(
      `shows a visitor the onion address with Copy, the unchecked privacy parts and the latency (${theme})`,
      { timeout: 120_000 },
      async () => {
        const erin = await newActor(suite.browser, 'erin', {
          storage: { 'secure-channel-theme': theme },
        });
        suite.actors.push(erin);
        await erin.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
          origin: suite.server.baseUrl,
        });

        const landing = new LandingPageObject(erin.page, suite.server.baseUrl);
        await landing.open();
        const card = erin.page.getByTestId('tor-visitor-status');
        await card.getByTestId('tor-visitor-onion-address').getByText(onionAddress).waitFor();
        // The server's own test through tor found the onion service answering (the fake tor
        // relays its own address to the service); polled every 5 s.
        await card.getByText(/· reachable/).waitFor({ timeout: 20_000 });
        // Never an admin control.
        expect(await card.getByRole('button').allTextContents()).toEqual(['COPY']);
        await card.getByTestId('tor-visitor-copy').click();
        await erin.page.getByText(TOR_TEXT.copied, { exact: true }).waitFor();
        expect(await erin.page.evaluate(() => navigator.clipboard.readText())).toBe(onionAddress);
        await card.scrollIntoViewIfNeeded();
        await shot(erin.page, theme, 'landing-onion-address');

        await landing.enterPublicChannel();
        const chat = new ChatPageObject(erin.page);
        await chat.waitUntilJoined();
        await erin.page
          .getByTestId('security-status-bar')
          .getByTestId('tor-visitor-onion-address')
          .getByText(onionAddress)
          .waitFor();

        const details = await new SecurityStatusObject(erin.page).openDetails();
        const privacy = details.getByTestId('details-privacy');
        // The test browser comes from loopback: nothing to look up, a direct connection.
        await privacy.getByText(/DIRECT_CONNECTION/).waitFor();
        await shot(erin.page, theme, 'chat-onion-address-and-privacy');

        await erin.page.getByTestId('more-options').click();
        await erin.page.getByTestId('menu-network-monitor').click();
        const monitor = erin.page.getByTestId('network-monitor-dialog');
        await monitor
          .getByTestId('network-monitor-latency')
          .getByText(/^\d+ ms$/)
          .waitFor();
        await shot(erin.page, theme, 'network-monitor-latency');
        expect(erin.errors).toEqual([]);
      },
    );
  }

  it(
    'says which privacy checks were not made when the server has no lookup service',
    { timeout: 60_000 },
    async () => {
      const gina = await newActor(suite.browser, 'gina', {
        storage: { securechannel_access_mode: 'public' },
      });
      suite.actors.push(gina);
      // The test browser reaches the server over loopback; a visitor from the network, as the
      // server answers for one without a lookup service, is stood in for by that answer.
      await gina.page.route('**/api/privacy/check', async (route) => {
        const answer = await fetch(`${suite.server.baseUrl}/api/privacy/check`, {
          headers: { 'x-forwarded-for': '198.51.100.7' },
        });
        await route.fulfill({ status: answer.status, json: await answer.json() });
      });
      await gina.page.goto(`${suite.server.baseUrl}/`);
      await new ChatPageObject(gina.page).waitUntilJoined();
      const details = await new SecurityStatusObject(gina.page).openDetails();
      await details
        .getByTestId('details-privacy')
        .getByText(
          /not checked: VPN, proxy, hosting, location, Tor \(no lookup service on this server\)/,
        )
        .waitFor();
    },
  );

  it(
    'refuses a tampered key file on the landing card as soon as it is chosen',
    { timeout: 60_000 },
    async () => {
      const key = await makeRegisteredKey(suite.server.baseUrl, {
        username: 'frank',
        level: 'user',
      });
      const tampered = serializeKeyFile({ ...key, username: 'mallory' });
      const frank = await newActor(suite.browser, 'frank');
      suite.actors.push(frank);
      const landing = new LandingPageObject(frank.page, suite.server.baseUrl);
      await landing.open();
      let authCalls = 0;
      await frank.page.route('**/api/auth/**', async (route) => {
        authCalls += 1;
        await route.continue();
      });
      await landing.chooseKeyFile('frank.sck', tampered);
      await frank.page.getByText('Key integrity validation failed').first().waitFor();
      expect(await landing.authenticateButton().isDisabled()).toBe(true);
      expect(authCalls).toBe(0);
    },
  );
});
