/**
 * Service states in the browser (spec 001 §2, §4; issue 21 items 1 and 3).
 *
 * Scenario: the service is shut down. Dave, a public visitor, opens `/` (whose default-room
 * call answers 503), the themes page and the landing page: each shows the shutdown notice at
 * its own address, and "Try again" says the service is still down instead of leading to a blank
 * page. When the service is restored the notice on /themes takes dave back to the themes page
 * by itself. Alice, an admin key holder chatting, is sent to /emergency-shutdown by the
 * shutdown; ADMIN ACCESS offers her restore without the admin password, and she is back in the
 * chat room she was in.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { VerifyResponseSchema } from '../../shared/protocol/http/auth.js';
import { login, makeRegisteredKey } from '../support/keys.js';
import { browserSuite, newActor } from './support/browser.js';
import { EmergencyPanelObject } from './pages/admin.js';
import { CHAT_URL, ChatPageObject } from './pages/chat-page.js';
import { smallTexts } from './support/legibility.js';

const PUBLIC = { securechannel_access_mode: 'public' };

describe('service states in the browser', () => {
  const suite = browserSuite();
  afterEach(async () => {
    if (suite.server.serviceState.isShutDown)
      await suite.server.adminOperations.restore('test-cleanup');
  });

  it('shows the notice on every route while down and returns the visitor to the same page', async () => {
    await suite.server.adminOperations.shutdown('Drill for every route', 'test');
    const dave = await newActor(suite.browser, 'dave', { storage: PUBLIC });
    suite.actors.push(dave);
    const notice = dave.page.getByTestId('emergency-shutdown-notice');

    for (const path of ['/', '/landing', '/themes']) {
      await dave.page.goto(`${suite.server.baseUrl}${path}`);
      await notice.waitFor({ timeout: 10_000 });
      expect(new URL(dave.page.url()).pathname).toBe(path);
    }
    expect(await smallTexts(dave.page, 12), 'shutdown notice').toEqual([]);

    // "Try again" while still down: the page says so and stays.
    await dave.page.getByTestId('emergency-shutdown-retry').click();
    await dave.page
      .getByTestId('emergency-still-down')
      .filter({ hasText: /Still offline at/ })
      .waitFor();
    expect(new URL(dave.page.url()).pathname).toBe('/themes');

    await suite.server.adminOperations.restore('test');
    await dave.page.getByTestId('service-restored').waitFor({ timeout: 10_000 });
    await dave.page.getByText('SecureChannel Themes').first().waitFor({ timeout: 10_000 });
    expect(new URL(dave.page.url()).pathname).toBe('/themes');
    expect(await notice.count()).toBe(0);
  });

  it('offers restore to an admin key holder on the notice page and returns her to her room', async () => {
    const key = await makeRegisteredKey(suite.server.baseUrl, {
      username: 'alice-keyadmin',
      level: 'admin',
    });
    const token = VerifyResponseSchema.parse(
      (await login(suite.server.baseUrl, key)).body,
    ).sessionToken;
    const alice = await newActor(suite.browser, 'alice', {
      storage: { securechannel_access_mode: 'authenticated', securechannel_session: token },
    });
    suite.actors.push(alice);
    await alice.page.goto(`${suite.server.baseUrl}/`);
    const chat = new ChatPageObject(alice.page);
    await chat.waitUntilJoined();
    const room = new URL(alice.page.url()).pathname;

    await suite.server.adminOperations.shutdown('Key holder drill', 'test');
    await alice.page.waitForURL(/\/emergency-shutdown$/, { timeout: 10_000 });
    await alice.page.getByTestId('admin-access').click();
    // No password gate: her admin key may shut down, so it may restore.
    await alice.page.getByTestId('emergency-key-credential').waitFor();
    const panel = new EmergencyPanelObject(alice.page);
    await panel.waitForStatus('emergency');
    await panel.restore();

    await alice.page.waitForURL(CHAT_URL, { timeout: 10_000 });
    expect(new URL(alice.page.url()).pathname).toBe(room);
    await chat.waitUntilJoined();
    expect(suite.server.serviceState.isShutDown).toBe(false);
  });
});
