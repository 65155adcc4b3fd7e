/**
 * Key login while the server's login queue is full (issue 22, target 2), in the browser against
 * a real server whose queue holds one verification per address. A verification held open from the
 * same address fills it: alice's login is answered 503 with Retry-After, the page says so and that
 * it retries, and once the held verification is answered her login goes through by itself.
 */
import { request } from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serializeKeyFile } from '../../shared/crypto/key-file-schema.js';
import { TEXT } from '../../shared/protocol/errors.js';
import { makeRegisteredKey } from '../support/keys.js';
import { ChatPageObject } from './pages/chat-page.js';
import { LandingPageObject } from './pages/landing-page.js';
import { browserSuite, newActor } from './support/browser.js';

const SCREENSHOTS = path.resolve(import.meta.dirname, '../../test-results/screenshots');

describe('key login while the login queue is full', () => {
  const suite = browserSuite({
    deps: { loginVerification: { maxPending: 4, maxPendingPerVisitor: 1 } },
  });

  /** A verification from 127.0.0.1 whose body never ends until `finish`: it holds the place. */
  function holdVerification() {
    const url = new URL(suite.server.baseUrl);
    const body = JSON.stringify({ keyId: 'held' });
    const req = request({
      host: url.hostname,
      port: Number(url.port),
      method: 'POST',
      path: '/api/auth/verify',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    req.on('error', () => undefined);
    req.on('response', (response) => response.resume());
    req.write(body.slice(0, 3));
    return () => req.end(body.slice(3));
  }

  for (const theme of ['classic', 'matrix']) {
    it(`says the queue is full, retries, and logs in (${theme} theme)`, async () => {
      const key = await makeRegisteredKey(suite.server.baseUrl, { username: `busy-${theme}` });
      const alice = await newActor(suite.browser, 'alice', {
        storage: { 'secure-channel-theme': theme },
      });
      suite.actors.push(alice);
      const landing = new LandingPageObject(alice.page, suite.server.baseUrl);
      await landing.open();
      await landing.chooseKeyFile('alice.sck', serializeKeyFile(key));

      const release = holdVerification();
      await landing.authenticateButton().click();
      await alice.page.getByText(TEXT.loginBusy).first().waitFor({ timeout: 20_000 });
      await alice.page
        .getByText(/Retrying in \d+ s/)
        .first()
        .waitFor();
      // The toast slides in: let it settle before the picture (for review, no assertion on it).
      await alice.page.waitForTimeout(600);
      await alice.page.screenshot({ path: path.join(SCREENSHOTS, `key-login-busy-${theme}.png`) });

      release();
      const chat = new ChatPageObject(alice.page);
      await chat.waitUntilLoaded();
      expect(await chat.callsign().textContent()).toBe(`busy-${theme}`);
    });
  }
});
