/**
 * Pinning the server's identity (spec 000 §4 "Certificate status", §8 "Certificate mismatch";
 * DESIGN.md "Server identity").
 *
 * The page is served under a real host name (`chat.securechannel.test`, mapped to 127.0.0.1 by
 * Chromium's resolver rules) because the spec skips the check on localhost. One browser profile
 * keeps its localStorage across two launches:
 *
 * 1. alice opens the public channel on server A: the identity is pinned on first use, the chat
 *    joins, the details panel says PINNED.
 * 2. The same origin now answers from server B (another identity key): the page shows
 *    CERT_MISMATCH with RESET_CERTIFICATES; no WebSocket is opened to it and no API call but the
 *    identity check is made.
 * 3. alice presses RESET_CERTIFICATES: B is pinned and the chat joins.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT } from '../../shared/protocol/errors.js';
import { type TestServer } from '../support/server.js';
import { ChatPageObject } from './pages/chat-page.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH, startAppServer } from './support/browser.js';

const HOST = 'chat.securechannel.test';
const ORIGIN = `http://${HOST}`;

describe('server identity pinning in the browser', () => {
  let serverA: TestServer;
  let serverB: TestServer;
  let profile: string;

  beforeAll(async () => {
    serverA = await startAppServer();
    serverB = await startAppServer();
    profile = mkdtempSync(path.join(tmpdir(), 'sc-identity-profile-'));
  });
  afterAll(async () => {
    await serverA?.stop();
    await serverB?.stop();
    rmSync(profile, { recursive: true, force: true });
  });

  /** Chromium with this profile, the test host name resolving to `server`'s port. */
  async function launchAgainst(server: TestServer): Promise<BrowserContext> {
    const port = new URL(server.baseUrl).port;
    return chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      args: [
        ...CHROMIUM_ARGS,
        `--host-resolver-rules=MAP ${HOST}:80 127.0.0.1:${port}`,
        // WebCrypto needs a secure context; the test host speaks plain HTTP on loopback.
        `--unsafely-treat-insecure-origin-as-secure=${ORIGIN}`,
      ],
      viewport: { width: 1280, height: 800 },
    });
  }

  it('pins on first use, stops at a changed identity, and continues after RESET_CERTIFICATES', async () => {
    // 1. First visit: pinned, joined.
    const first = await launchAgainst(serverA);
    try {
      const page = first.pages()[0] ?? (await first.newPage());
      await page.addInitScript(() =>
        window.localStorage.setItem('securechannel_access_mode', 'public'),
      );
      await page.goto(`${ORIGIN}/`);
      const chat = new ChatPageObject(page);
      await chat.waitUntilJoined();
      const pins = await page.evaluate(() => window.localStorage.getItem('pinnedCertificates'));
      expect(JSON.parse(pins ?? '[]')).toHaveLength(1);
    } finally {
      await first.close();
    }

    // 2. Same origin, another identity: CERT_MISMATCH, and no socket to the new server.
    const second = await launchAgainst(serverB);
    try {
      const page = second.pages()[0] ?? (await second.newPage());
      const sockets: string[] = [];
      const apiCalls: string[] = [];
      page.on('websocket', (socket) => sockets.push(socket.url()));
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname.startsWith('/api/')) apiCalls.push(url.pathname);
      });
      await page.goto(`${ORIGIN}/`);
      const alert = page.getByTestId('certificate-alert');
      await alert.waitFor();
      expect(await alert.textContent()).toContain(TEXT.certMismatch);
      expect(await alert.textContent()).toContain(TEXT.certificateValidationFailed);
      // Nothing but the identity check itself went to the server whose pin failed.
      expect(sockets).toEqual([]);
      expect(new Set(apiCalls)).toEqual(new Set(['/api/certificate-info']));

      // 3. The user knows why it changed: reset, pin B, join.
      await page.getByTestId('reset-certificates').click();
      await new ChatPageObject(page).waitUntilJoined();
      expect(sockets.length).toBeGreaterThan(0);
      await expect.poll(() => alert.count()).toBe(0);
    } finally {
      await second.close();
    }
    // Two browser launches and three page loads: more than one default test budget.
  }, 180_000);
});
