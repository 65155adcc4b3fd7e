/**
 * Key-file login in the browser (spec 001 §2 landing, §5; spec 000 §4 "Auth").
 *
 * Scenario: alice holds a registered key file. She picks files on the landing page (a wrong type,
 * a file that is not JSON, then her key), authenticates, arrives in the chat under her username,
 * keeps her session across a reload, and forgets her key to return to /landing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { serializeKeyFile, type KeyFile } from '../../shared/crypto/key-file-schema.js';
import { makeRegisteredKey } from '../support/keys.js';
import { browserSuite, newActor } from './support/browser.js';
import { LandingPageObject } from './pages/landing-page.js';
import { ChatPageObject } from './pages/chat-page.js';

describe('key login in the browser', () => {
  const suite = browserSuite();
  let aliceKey: KeyFile;

  beforeAll(async () => {
    aliceKey = await makeRegisteredKey(suite.server.baseUrl, { username: 'alice', level: 'user' });
  });

  it('shows the spec texts for a wrong file type and for a file that is not JSON', async () => {
    const alice = await newActor(suite.browser, 'alice');
    suite.actors.push(alice);
    const landing = new LandingPageObject(alice.page, suite.server.baseUrl);
    await landing.open();
    await landing.chooseKeyFile('alice.txt', serializeKeyFile(aliceKey));
    await alice.page.getByText('Invalid File Type').first().waitFor();
    await alice.page.getByText('Please select a valid .sck or .bin key file').first().waitFor();
    expect(await landing.authenticateButton().isDisabled()).toBe(true);

    await landing.chooseKeyFile('alice.sck', '{ this is not json');
    await alice.page.getByText('Invalid key file format - not valid JSON').first().waitFor();
    expect(await landing.authenticateButton().isDisabled()).toBe(true);
    expect(
      await alice.page.evaluate(() => localStorage.getItem('securechannel_access_mode')),
    ).toBeNull();
  });

  it('logs in with a .sck file, keeps the session across a reload, and Forget Key returns to /landing', async () => {
    const alice = await newActor(suite.browser, 'alice');
    suite.actors.push(alice);
    const landing = new LandingPageObject(alice.page, suite.server.baseUrl);
    await landing.open();
    await landing.chooseKeyFile('alice.sck', serializeKeyFile(aliceKey));
    await landing.authenticateButton().click();
    const chat = new ChatPageObject(alice.page);
    await chat.waitUntilLoaded();
    await alice.page.getByText('Authentication Successful').first().waitFor();
    expect(await chat.callsign().textContent()).toBe('alice');
    expect(await alice.page.getByTestId('sec-level').textContent()).toBe('USER');
    expect(await alice.page.getByTestId('regenerate-callsign').count()).toBe(0);
    await alice.page.getByTestId('direct-messages-button').waitFor();
    const stored = await alice.page.evaluate(() => ({
      mode: localStorage.getItem('securechannel_access_mode'),
      token: localStorage.getItem('securechannel_session'),
    }));
    expect(stored.mode).toBe('authenticated');
    expect(stored.token).toBeTruthy();
    // Nothing of the private keys is kept in storage.
    const storageText = await alice.page.evaluate(
      () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
    );
    expect(storageText).not.toContain(JSON.stringify(aliceKey.ecdsaPrivateKey));

    await alice.page.reload();
    await chat.waitUntilLoaded();
    expect(await chat.callsign().textContent()).toBe('alice');

    await alice.page.getByTestId('more-options').click();
    await alice.page.getByTestId('menu-forget-key').click();
    await alice.page.waitForURL(/\/landing$/);
    const after = await alice.page.evaluate(() => ({
      mode: localStorage.getItem('securechannel_access_mode'),
      token: localStorage.getItem('securechannel_session'),
    }));
    expect(after).toEqual({ mode: null, token: null });
    const session = await fetch(`${suite.server.baseUrl}/api/auth/session`, {
      headers: { authorization: `Bearer ${stored.token}` },
    });
    expect(await session.json()).toEqual({ valid: false, user: null });
  });

  it('drops a stored session the server no longer accepts and shows the key page', async () => {
    const bob = await newActor(suite.browser, 'bob', {
      storage: {
        securechannel_access_mode: 'authenticated',
        securechannel_session: 'stale-token-value-123456',
      },
    });
    suite.actors.push(bob);
    await bob.page.goto(`${suite.server.baseUrl}/`);
    await bob.page.getByRole('heading', { name: 'KEY AUTHENTICATION' }).waitFor();
    expect(await bob.page.evaluate(() => localStorage.getItem('securechannel_session'))).toBeNull();
  });
});
