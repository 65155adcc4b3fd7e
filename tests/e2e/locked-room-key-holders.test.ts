/**
 * Key holders and locked rooms in the browser (issue 31; spec 000 §4 "Room access", §2
 * "Create-channel dialog", "Room participant list").
 *
 * Scenario: alice, an anonymous visitor, opens CREATE and picks CLASSIFIED: under the access code
 * the dialog says who can enter — anyone with the code, key holders without it. She creates the
 * channel that way. bob, a key holder, opens its link and is in at once, no access terminal; both
 * of them see bob marked KEY ENTRY in the operatives list, and alice (who used the code) not.
 * alice then creates a second channel with "Require the code from key holders too": the dialog
 * and its success card say everyone needs the code. bob opening that link meets the access
 * terminal, enters the code, and is listed without the KEY ENTRY mark.
 *
 * With SCREENSHOT_DIR set, the create dialog is kept in two themes (classic and matrix).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serializeKeyFile } from '../../shared/crypto/key-file-schema.js';
import { TEXT } from '../../shared/protocol/errors.js';
import { makeRegisteredKey } from '../support/keys.js';
import { LandingPageObject } from './pages/landing-page.js';
import { CHAT_URL, ChatPageObject } from './pages/chat-page.js';
import { AccessTerminalObject, CreateChannelDialogObject } from './pages/room-dialogs.js';
import { type Actor, browserSuite, newActor } from './support/browser.js';

const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? null;
const ACCESS_CODE = 'blue-heron-2231';
const DEFAULT_RULE = 'Anyone with the code can enter. Key holders can enter without it.';
const CODE_FOR_EVERYONE = 'Everyone, key holders included, needs the code.';

async function shoot(page: Page, name: string) {
  if (!SCREENSHOT_DIR) return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

/** The operatives list, opened. */
async function operatives(page: Page) {
  const panel = page.getByTestId('operatives-panel');
  if ((await panel.count()) === 0) await page.getByTestId('toggle-operatives').click();
  await panel.waitFor();
  return panel;
}
const row = (page: Page, username: string) =>
  page.getByTestId('operative-row').filter({ hasText: username });

describe('key holders and locked rooms in the browser', () => {
  const suite = browserSuite();

  async function actor(name: string, theme = 'classic'): Promise<Actor> {
    const created = await newActor(suite.browser, name, {
      storage: { securechannel_access_mode: 'public', 'secure-channel-theme': theme },
    });
    suite.actors.push(created);
    return created;
  }

  /** Opens CREATE on `page` and fills a classified channel with the code. */
  async function openClassifiedForm(page: Page, name: string) {
    const create = new CreateChannelDialogObject(page);
    await create.open();
    await create.fill({ name, clearance: 'classified', accessCode: ACCESS_CODE });
    return create;
  }

  it('says who can enter, marks a key entry in the default mode, and asks a key holder for the code when the creator chose so', async () => {
    const alice = await actor('alice');
    await alice.page.goto(`${suite.server.baseUrl}/`);
    const aliceChat = new ChatPageObject(alice.page);
    await aliceChat.waitUntilJoined();
    const aliceName = (await aliceChat.callsign().textContent())!;

    // The default: key holders enter without the code, and the dialog says so.
    const first = `keys-${Date.now().toString(36)}`;
    const create = await openClassifiedForm(alice.page, first);
    const whoCanEnter = create.dialog().getByTestId('create-channel-who-can-enter');
    expect(await whoCanEnter.textContent()).toContain(DEFAULT_RULE);
    const option = create.dialog().getByRole('checkbox', {
      name: 'Require the code from key holders too',
    });
    expect(await option.isChecked()).toBe(false);
    await shoot(alice.page, 'create-dialog-classic-default');
    await create.submit();
    await create.successCard().waitFor();
    expect(await create.dialog().getByTestId('create-channel-success-entry').textContent()).toBe(
      DEFAULT_RULE,
    );
    await create.dialog().waitFor({ state: 'detached' });
    await alice.page.waitForURL(CHAT_URL);
    await aliceChat.roomName().filter({ hasText: first.toUpperCase() }).waitFor();
    await aliceChat.waitUntilJoined();
    const keyedRoom = aliceChat.secureId();

    // bob logs in with his key and opens the link: no terminal, and he is marked KEY ENTRY.
    const bob = await actor('bob');
    const bobKey = await makeRegisteredKey(suite.server.baseUrl, { username: 'bob' });
    const landing = new LandingPageObject(bob.page, suite.server.baseUrl);
    await landing.open();
    await landing.chooseKeyFile('bob.sck', serializeKeyFile(bobKey));
    await landing.authenticateButton().click();
    const bobChat = new ChatPageObject(bob.page);
    await bobChat.waitUntilJoined();
    await bob.page.goto(`${suite.server.baseUrl}/chat/${keyedRoom}`);
    await bobChat.roomName().filter({ hasText: first.toUpperCase() }).waitFor();
    await bobChat.waitUntilJoined();
    expect(await new AccessTerminalObject(bob.page).dialog().count()).toBe(0);

    for (const page of [alice.page, bob.page]) {
      await operatives(page);
      const badge = row(page, 'bob').getByTestId('key-entry-badge');
      await badge.waitFor();
      expect(await badge.getAttribute('title')).toBe('entered with a key, without the access code');
      expect(await row(page, aliceName).getByTestId('key-entry-badge').count()).toBe(0);
    }
    // Readable: at least 12 px.
    const fontSize = await row(alice.page, 'bob')
      .getByTestId('key-entry-badge')
      .evaluate((element) => parseFloat(getComputedStyle(element).fontSize));
    expect(fontSize).toBeGreaterThanOrEqual(12);
    await shoot(alice.page, 'member-list-key-entry');

    // The option: everyone, key holders included, needs the code.
    const second = `coded-${Date.now().toString(36)}`;
    const strict = await openClassifiedForm(alice.page, second);
    await strict
      .dialog()
      .getByRole('checkbox', { name: 'Require the code from key holders too' })
      .check();
    expect(
      await strict.dialog().getByTestId('create-channel-who-can-enter').textContent(),
    ).toContain(CODE_FOR_EVERYONE);
    await shoot(alice.page, 'create-dialog-classic-code-for-everyone');
    await strict.submit();
    await strict.log().getByText('> KEY HOLDERS: CODE REQUIRED').waitFor();
    await strict.successCard().waitFor();
    expect(await strict.dialog().getByTestId('create-channel-success-entry').textContent()).toBe(
      CODE_FOR_EVERYONE,
    );
    await strict.dialog().waitFor({ state: 'detached' });
    await aliceChat.roomName().filter({ hasText: second.toUpperCase() }).waitFor();
    await aliceChat.waitUntilJoined();
    const codedRoom = aliceChat.secureId();
    expect(codedRoom).not.toBe(keyedRoom);

    // bob's key is not enough here: the access terminal asks him for the code.
    await bob.page.goto(`${suite.server.baseUrl}/chat/${codedRoom}`);
    const terminal = new AccessTerminalObject(bob.page);
    await terminal.dialog().waitFor();
    await terminal.enter(ACCESS_CODE);
    await terminal.log().getByText(TEXT.accessGranted, { exact: true }).waitFor();
    await terminal.dialog().waitFor({ state: 'detached' });
    await bobChat.roomName().filter({ hasText: second.toUpperCase() }).waitFor();
    await bobChat.waitUntilJoined();
    await operatives(alice.page);
    await row(alice.page, 'bob').waitFor();
    expect(await row(alice.page, 'bob').getByTestId('key-entry-badge').count()).toBe(0);
  });

  it.runIf(SCREENSHOT_DIR !== null)('keeps the create dialog in the matrix theme', async () => {
    const carol = await actor('carol', 'matrix');
    await carol.page.goto(`${suite.server.baseUrl}/`);
    await new ChatPageObject(carol.page).waitUntilJoined();
    const create = await openClassifiedForm(carol.page, 'matrix-look');
    await shoot(carol.page, 'create-dialog-matrix-default');
    await create
      .dialog()
      .getByRole('checkbox', { name: 'Require the code from key holders too' })
      .check();
    await shoot(carol.page, 'create-dialog-matrix-code-for-everyone');
  });
});
