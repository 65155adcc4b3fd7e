/**
 * What an operator and a chatter meet first (issue 33).
 *
 * Scenario: an operator opens the landing page of a fresh server, chooses ADMIN at its foot,
 * enters the admin password, generates the first admin key in the browser (the file downloads;
 * only its public part is registered), logs in with it from the same notice, and opens the admin
 * panel with /admin. In the chat, /help lists what each user may run; an unknown command and a
 * command the user may not run are answered on screen and never reach the relay (no
 * `send_message` frame leaves the browser, and a second member sees nothing), while `//text`
 * sends `/text`.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { parseKeyFileText, type KeyFile } from '../../shared/crypto/key-file-schema.js';
import { AdminKeyListSchema } from '../../shared/protocol/http/auth.js';
import { adminToken, login } from '../support/keys.js';
import { TEST_ADMIN_PASSWORD } from '../support/server.js';
import { AdminPanelObject } from './pages/admin.js';
import { ChatPageObject } from './pages/chat-page.js';
import { waitForKeysFrom } from './pages/security-status.js';
import { browserSuite, newActor } from './support/browser.js';

const SCREENSHOTS = process.env.OPERATOR_SCREENSHOT_DIR ?? null;

/** The `type` of every frame `page` sends on its sockets. */
function recordSentFrameTypes(page: Page): string[] {
  const types: string[] = [];
  page.on('websocket', (socket) => {
    socket.on('framesent', (event) => {
      try {
        const frame = JSON.parse(String(event.payload)) as { type?: unknown };
        if (typeof frame.type === 'string') types.push(frame.type);
      } catch {
        types.push('(not JSON)');
      }
    });
  });
  return types;
}

describe("the operator's first steps and the chat commands", () => {
  const suite = browserSuite();

  const shot = async (page: Page, name: string) => {
    if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
  };

  it('makes the first admin key from the landing page with the admin password, and logs in with it', async () => {
    for (const theme of ['classic', 'matrix']) {
      const operator = await newActor(suite.browser, `operator-${theme}`, {
        storage: { 'secure-channel-theme': theme },
      });
      suite.actors.push(operator);
      const page = operator.page;
      await page.goto(`${suite.server.baseUrl}/landing`);

      await page.getByRole('button', { name: 'Admin', exact: true }).click();
      const dialog = page.getByTestId('admin-access');
      await dialog.getByText('DATA_DIR/admin-password').waitFor();
      await shot(page, `${theme}-admin-access-locked`);
      // A wrong password is refused and unlocks nothing.
      await dialog.getByLabel('Admin password').fill('not the password');
      await dialog.getByLabel('Admin password').press('Enter');
      await dialog.getByRole('alert').filter({ hasText: /\w/ }).first().waitFor();
      expect(await page.getByTestId('key-generate-form').count()).toBe(0);

      await dialog.getByLabel('Admin password').fill(TEST_ADMIN_PASSWORD);
      await dialog.getByLabel('Admin password').press('Enter');
      await page.getByTestId('key-generate-form').waitFor();
      expect(await page.getByTestId('admin-access-state').textContent()).toBe('AUTHENTICATED');
      // The first key is an admin key unless the operator chooses otherwise.
      expect(await page.getByTestId('key-generate-level').inputValue()).toBe('admin');
      await shot(page, `${theme}-admin-access-generate`);

      const admin = new AdminPanelObject(page);
      const username = `operator-${theme}`;
      const download = await admin.generateKey({ username });
      expect(download.suggestedFilename()).toBe(`${username}.sck`);
      const parsed = parseKeyFileText(await readFile(await download.path(), 'utf8'));
      expect(parsed.ok).toBe(true);
      const keyFile = (parsed as { ok: true; keyFile: KeyFile }).keyFile;
      expect(keyFile.permissions.level).toBe('admin');
      expect(keyFile.dilithiumPrivateKey).toBeDefined();
      await admin.generatedNotice().getByText('[!] Key generated and registered').waitFor();
      await shot(page, `${theme}-admin-access-generated`);

      // Only the public part reached the server, and the file logs in.
      const listed = await fetch(`${suite.server.baseUrl}/api/admin/keys`, {
        headers: { authorization: `Bearer ${await adminToken(suite.server.baseUrl)}` },
      });
      const keys = AdminKeyListSchema.parse(await listed.json()).keys;
      expect(keys.find((key) => key.keyId === keyFile.keyId)?.permissions.level).toBe('admin');
      expect((await login(suite.server.baseUrl, keyFile)).status).toBe(200);

      await page.getByRole('button', { name: 'LOG IN WITH THIS KEY' }).click();
      const chat = new ChatPageObject(page);
      await chat.waitUntilJoined();
      await chat.send('/admin');
      await admin.waitUntilOpen();
      await admin.keyRow(username).waitFor();
      await page.keyboard.press('Escape');
    }
  });

  it('answers /help, unknown and forbidden commands on screen and never sends them', async () => {
    const alice = await newActor(suite.browser, 'alice', {
      storage: { securechannel_access_mode: 'public' },
    });
    const bob = await newActor(suite.browser, 'bob', {
      storage: { securechannel_access_mode: 'public', 'secure-channel-theme': 'matrix' },
    });
    suite.actors.push(alice, bob);
    const sent = recordSentFrameTypes(alice.page);
    const aliceChat = new ChatPageObject(alice.page);
    const bobChat = new ChatPageObject(bob.page);
    for (const [actor, chat] of [
      [alice, aliceChat],
      [bob, bobChat],
    ] as const) {
      await actor.page.goto(`${suite.server.baseUrl}/`);
      await chat.waitUntilJoined();
    }
    // Both are in, and bob holds alice's keys: he reads whatever she sends from now on.
    await waitForKeysFrom(bob.page, aliceChat);
    const hello = `hello ${Date.now().toString(36)}`;
    await aliceChat.send(hello);
    await bobChat.message(hello).waitFor();
    const messagesBefore = sent.filter((type) => type === 'send_message').length;

    await aliceChat.send('/help');
    const help = aliceChat.systemLine('COMMANDS:');
    await help.waitFor();
    const helpText = (await help.textContent()) ?? '';
    expect(helpText).toContain('/get-key');
    expect(helpText).not.toContain('/admin');
    expect(helpText).not.toContain('/pong');

    await aliceChat.send('/hlep me');
    await aliceChat
      .systemLine('Unknown command /hlep. Type /help for the commands you can use.')
      .waitFor();
    await aliceChat.send('/admin');
    await aliceChat.systemLine('Access denied').waitFor();
    await aliceChat.send('/kick bob');
    await aliceChat.systemLine('/kick: Only moderators and admins').waitFor();
    await shot(alice.page, 'classic-chat-commands');

    // The escape: //shrug goes out as /shrug, and is the next thing bob receives.
    await aliceChat.send('//shrug');
    await bobChat.message('/shrug').waitFor();
    await shot(bob.page, 'matrix-chat-escape');
    expect(sent.filter((type) => type === 'send_message').length).toBe(messagesBefore + 1);
    expect(
      await bobChat
        .messages()
        .filter({ hasText: /hlep|\/help|\/admin|\/kick/ })
        .count(),
    ).toBe(0);
    expect(await bobChat.systemLine(/Unknown command|COMMANDS:/).count()).toBe(0);
  });
});
