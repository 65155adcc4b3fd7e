/**
 * Key login while the server's login queue is full (issue 22, target 2), in the browser against
 * a real server. Since issue 31 a verification takes its place in the queue only once its whole
 * body has arrived and gives it back as soon as it is answered, so no request from a test can hold
 * a place for the seconds a browser needs (the queue's own refusals are proven over real HTTP in
 * tests/integration/login-admission.test.ts). Here the server's first answer to alice's
 * verification is the queue's refusal as the server words it (TEXT.loginBusy and a wait),
 * put in place of the real one (the login frame's refusal with `retryAfterSeconds`, as the server
 * words it); the page says so and that it retries, and its retry reaches the real server and logs
 * her in by itself.
 */
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

      // The first verification is refused as a full queue refuses it; the retry goes through.
      let refused = 0;
      await alice.page.routeWebSocket('**/chat-ws', (socket) => {
        const server = socket.connectToServer();
        socket.onMessage((message) => {
          if (
            refused === 0 &&
            typeof message === 'string' &&
            message.includes('"type":"login_verify"')
          ) {
            refused += 1;
            const busy = {
              type: 'error',
              message: TEXT.loginBusy,
              frameType: 'login_verify',
              retryAfterSeconds: 2,
            };
            return socket.send(JSON.stringify(busy));
          }
          server.send(message);
        });
        server.onMessage((message) => socket.send(message));
      });
      await landing.authenticateButton().click();
      await alice.page.getByText(TEXT.loginBusy).first().waitFor({ timeout: 20_000 });
      await alice.page
        .getByText(/Retrying in \d+ s/)
        .first()
        .waitFor();
      // The toast slides in: let it settle before the picture (for review, no assertion on it).
      await alice.page.waitForTimeout(600);
      await alice.page.screenshot({ path: path.join(SCREENSHOTS, `key-login-busy-${theme}.png`) });

      const chat = new ChatPageObject(alice.page);
      await chat.waitUntilLoaded();
      expect(await chat.callsign().textContent()).toBe(`busy-${theme}`);
      expect(refused).toBe(1);
    });
  }
});
