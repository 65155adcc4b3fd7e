/**
 * The admin console's authentication and commands, and keys whose registration fails (spec 001
 * §2 "Admin panel", §4 "Admin console session", §6, §8; issue 21 items 4 and 14).
 *
 * Scenario: alice holds an admin key and opens /admin. The Console tab is locked: a wrong
 * password is refused with the server's text; the admin password opens a console session whose
 * time left shows. `keygen carol-console 30 observer` downloads carol's key file and registers
 * it; `tor status` prints the Tor service's state. LOCK locks the console again. Then the
 * server refuses a registration (the request is answered 500 by the test): the Key Management
 * form still hands the generated file over, with the spec's warning, and RETRY REGISTRATION
 * registers it once the server accepts again.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseKeyFileText, type KeyFile } from '../../shared/crypto/key-file-schema.js';
import { TEXT } from '../../shared/protocol/errors.js';
import { AdminKeyListSchema, VerifyResponseSchema } from '../../shared/protocol/http/auth.js';
import { adminToken, login, makeRegisteredKey } from '../support/keys.js';
import { TEST_ADMIN_PASSWORD } from '../support/server.js';
import { browserSuite, newActor } from './support/browser.js';
import { AdminPanelObject } from './pages/admin.js';
import { ChatPageObject } from './pages/chat-page.js';

describe('the admin console in the browser', () => {
  const suite = browserSuite();

  async function adminInChat(name: string) {
    const key = await makeRegisteredKey(suite.server.baseUrl, { username: name, level: 'admin' });
    const token = VerifyResponseSchema.parse(
      (await login(suite.server.baseUrl, key)).body,
    ).sessionToken;
    const actor = await newActor(suite.browser, name, {
      storage: { securechannel_access_mode: 'authenticated', securechannel_session: token },
    });
    suite.actors.push(actor);
    await actor.page.goto(`${suite.server.baseUrl}/`);
    const chat = new ChatPageObject(actor.page);
    await chat.waitUntilJoined();
    await chat.send('/admin');
    const admin = new AdminPanelObject(actor.page);
    await admin.waitUntilOpen();
    return { actor, admin };
  }

  async function registeredKeys() {
    const response = await fetch(`${suite.server.baseUrl}/api/admin/keys`, {
      headers: { authorization: `Bearer ${await adminToken(suite.server.baseUrl)}` },
    });
    return AdminKeyListSchema.parse(await response.json()).keys;
  }

  async function keyFileOf(path: string): Promise<KeyFile> {
    const parsed = parseKeyFileText(await readFile(path, 'utf8'));
    if (!parsed.ok) throw new Error('not a key file');
    return parsed.keyFile;
  }

  it('locks the console until the admin password, then generates keys and runs Tor commands', async () => {
    const { actor: alice, admin } = await adminInChat('alice-console-auth');
    await admin.openTab('console');
    await alice.page.getByTestId('admin-console-locked').waitFor();
    expect(await alice.page.getByTestId('admin-console-input').count()).toBe(0);

    await alice.page.getByTestId('console-password').fill('not-the-password');
    await alice.page.getByTestId('console-password').press('Enter');
    await alice.page
      .getByTestId('console-auth-error')
      .getByText('Invalid admin password')
      .waitFor();

    await admin.unlockConsole(TEST_ADMIN_PASSWORD);
    expect(await alice.page.getByTestId('console-session-left').textContent()).toMatch(/^(9|10)/);

    const [download] = await Promise.all([
      alice.page.waitForEvent('download', { timeout: 30_000 }),
      admin.runConsole('keygen carol-console 30 observer'),
    ]);
    expect(download.suggestedFilename()).toBe('carol-console.sck');
    const carol = await keyFileOf(await download.path());
    await admin
      .consoleOutput()
      .getByText(/Key generated and registered/)
      .waitFor();
    expect((await registeredKeys()).find((key) => key.keyId === carol.keyId)).toMatchObject({
      username: 'carol-console',
      permissions: { level: 'observer' },
    });

    await admin.runConsole('tor status');
    await admin
      .consoleOutput()
      .getByText(/^Tor (RUNNING|STOPPED)/)
      .waitFor();
    await admin.runConsole('help');
    await admin
      .consoleOutput()
      .getByText(/keygen <username> \[days\] \[level\]/)
      .waitFor();

    await alice.page.getByTestId('console-lock').click();
    await alice.page.getByTestId('admin-console-locked').waitFor();
  });

  it('hands a generated key over with the warning when its registration fails', async () => {
    const { actor: alice, admin } = await adminInChat('alice-register-fail');
    let refuse = true;
    await alice.page.route('**/api/keys/register', async (route) => {
      if (!refuse) return route.continue();
      await route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'Internal server error' }),
      });
    });

    const download = await admin.generateKey({ username: 'dora-unregistered', days: '10' });
    const dora = await keyFileOf(await download.path());
    expect(dora.dilithiumPrivateKey).toBeDefined();
    await alice.page.getByTestId('key-not-registered').waitFor();
    expect(await alice.page.getByTestId('key-not-registered').textContent()).toContain(
      `${TEXT.keyGeneratedNotRegistered}: Internal server error`,
    );
    await admin.generatedNotice().getByText(`${TEXT.keyRegistrationWarningTitle}:`).waitFor();
    expect((await registeredKeys()).some((key) => key.keyId === dora.keyId)).toBe(false);

    refuse = false;
    await alice.page.getByTestId('key-generated-retry').click();
    await admin.generatedNotice().getByText('[!] Key generated and registered').waitFor();
    expect((await registeredKeys()).some((key) => key.keyId === dora.keyId)).toBe(true);
    expect((await login(suite.server.baseUrl, dora)).status).toBe(200);
  });
});
