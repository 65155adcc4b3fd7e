/**
 * What a visitor and a key holder meet in the chat beyond the messages (issue 21, items 7 to 12;
 * spec 000 §2, §3, §4, §6, §9; spec 001 §3).
 *
 * Public channel, two anonymous visitors: alice sees the prompt and link to /get-key; when bob
 * types, alice's operatives list (and bob's own) shows him TYPING at once, and ONLINE again a
 * second after he stops; bob's screenshot shortcut reaches alice as a security notice, not as a
 * chat row tagged PLAINTEXT; the list's scrollbar shows while it scrolls and hides 600 ms later;
 * /simulation is refused to a visitor; no MSG button is offered to a visitor. The Network Monitor
 * opens on a page whose socket never joins.
 *
 * Key holders: alice logs in with her key file and hears the login sound (bob, with the sound's
 * toggle off, does not); alice's security details show her key id, level and capabilities; her
 * /simulation shows labelled drill lines; MSG on bob's row opens NEW CONVERSATION with bob's secure
 * id, and MSG on carol (anonymous) says she has no secure id. Screenshots of these screens go to
 * SCREENSHOT_DIR in two themes when it is set.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { serializeKeyFile, type KeyFile } from '../../shared/crypto/key-file-schema.js';
import { secureIdForKey } from '../../shared/ids.js';
import { anonymousMemberText } from '../../client/features/dm/MessageMemberButton.js';
import { SIMULATION_TEXT } from '../../client/features/messages/simulation.js';
import { GET_KEY_PROMPT } from '../../client/features/rooms/AuthStatusLine.js';
import { makeRegisteredKey } from '../support/keys.js';
import { ChatPageObject } from './pages/chat-page.js';
import { waitForKeysFrom } from './pages/security-status.js';
import { LandingPageObject } from './pages/landing-page.js';
import { type Actor, browserSuite, newActor } from './support/browser.js';

const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? null;

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

/**
 * Records the notes the page's Web Audio starts, by wave (only the login sound uses triangle),
 * and each time the page lets its AudioContext sleep.
 */
async function countNotes(actor: Actor) {
  await actor.context.addInitScript(() => {
    const notes: string[] = [];
    Object.assign(window, { __notes: notes });
    const start = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function (this: OscillatorNode, when?: number) {
      notes.push(this.type);
      return start.call(this, when);
    };
    const suspend = AudioContext.prototype.suspend;
    AudioContext.prototype.suspend = function (this: AudioContext) {
      notes.push('suspend');
      return suspend.call(this);
    };
  });
}

const notesOf = (page: Page) =>
  page.evaluate(() => (window as unknown as { __notes: string[] }).__notes);

describe('chat screens an anonymous visitor meets', () => {
  const suite = browserSuite();

  async function visitor(name: string, theme: string) {
    const actor = await newActor(suite.browser, name, {
      storage: { securechannel_access_mode: 'public', 'secure-channel-theme': theme },
    });
    suite.actors.push(actor);
    await actor.page.goto(`${suite.server.baseUrl}/`);
    const chat = new ChatPageObject(actor.page);
    await chat.waitUntilJoined();
    const callsign = (await chat.callsign().textContent())?.trim() ?? '';
    return { actor, chat, callsign };
  }

  it('shows typing in the operatives list at once, alerts as security notices, and the way to a key', async () => {
    const alice = await visitor('alice', 'classic');
    const bob = await visitor('bob', 'cyberpunk');

    // The prompt and link to /get-key.
    const prompt = alice.actor.page.getByTestId('get-key-prompt');
    await prompt.getByText(GET_KEY_PROMPT).waitFor();

    // Typing: alice's list and bob's own show TYPING... at once, then ONLINE a second after.
    for (const page of [alice.actor.page, bob.actor.page]) await operatives(page);
    await row(alice.actor.page, bob.callsign).getByText('ONLINE').waitFor();
    await bob.chat.input().pressSequentially('hold the line');
    for (const page of [alice.actor.page, bob.actor.page])
      await row(page, bob.callsign).getByText('TYPING...').waitFor({ timeout: 3000 });
    await shoot(alice.actor.page, 'operatives-typing-classic');
    for (const page of [alice.actor.page, bob.actor.page])
      await row(page, bob.callsign).getByText('ONLINE').waitFor({ timeout: 4000 });

    // Visitors get no MSG button: they have no key to write with.
    expect(await alice.actor.page.getByTestId('member-message').count()).toBe(0);

    // A screenshot shortcut: a security notice for everyone, no chat row, no PLAINTEXT tag.
    await bob.chat.input().press('Control+Shift+S');
    for (const { actor } of [alice, bob]) {
      await actor.page
        .getByTestId('security-notice')
        .filter({ hasText: `${bob.callsign} attempted a screenshot` })
        .waitFor();
      expect(await actor.page.getByTestId('plaintext-tag').count()).toBe(0);
      expect(
        await actor.page.getByTestId('chat-message').filter({ hasText: 'SECURITY' }).count(),
      ).toBe(0);
    }
    await shoot(alice.actor.page, 'security-notice-classic');
    await shoot(bob.actor.page, 'security-notice-cyberpunk');

    // /simulation needs a key.
    await alice.chat.send('/simulation');
    await alice.chat.systemLine(SIMULATION_TEXT.refused).waitFor();

    // Scrollbars: shown while the list scrolls, hidden 600 ms after.
    const list = alice.actor.page.getByTestId('message-list');
    await list.evaluate((element) => element.dispatchEvent(new Event('scroll')));
    await alice.actor.page.locator('[data-testid="message-list"][data-scrolling]').waitFor();
    const shown = await list.evaluate((element) => getComputedStyle(element).scrollbarColor);
    await alice.actor.page
      .locator('[data-testid="message-list"]:not([data-scrolling])')
      .waitFor({ timeout: 3000 });
    const hidden = await list.evaluate((element) => getComputedStyle(element).scrollbarColor);
    expect(hidden).not.toBe(shown);
    expect(hidden).toMatch(/transparent|rgba\(0, 0, 0, 0\)/);

    await prompt.getByTestId('get-key-link').click();
    await alice.actor.page.waitForURL(/\/get-key$/);
  }, 120_000);

  it('opens the Network Monitor before the room is joined', async () => {
    const watcher = await visitor('carol', 'classic');
    const early = await newActor(suite.browser, 'dave', {
      storage: { securechannel_access_mode: 'public' },
    });
    suite.actors.push(early);
    // dave's socket goes nowhere: his page never joins the room.
    await early.page.routeWebSocket(/\/chat-ws/, () => undefined);
    await early.page.goto(`${suite.server.baseUrl}/chat/${watcher.chat.secureId()}`);
    const chat = new ChatPageObject(early.page);
    await chat.waitUntilLoaded();
    expect(await chat.input().isDisabled()).toBe(true);
    await early.page.getByTestId('more-options').click();
    await early.page.getByTestId('menu-network-monitor').click();
    const dialog = early.page.getByTestId('network-monitor-dialog');
    await dialog.getByText(watcher.callsign).waitFor();
    expect(await dialog.getByRole('alert').count()).toBe(0);
  }, 60_000);
});

describe('chat screens a key holder meets', () => {
  const suite = browserSuite();

  async function keyHolder(name: string, keyFile: KeyFile, storage: Record<string, string>) {
    const actor = await newActor(suite.browser, name, { storage });
    suite.actors.push(actor);
    await countNotes(actor);
    const landing = new LandingPageObject(actor.page, suite.server.baseUrl);
    await landing.open();
    await landing.chooseKeyFile(`${name}.sck`, serializeKeyFile(keyFile));
    await landing.authenticateButton().click();
    const chat = new ChatPageObject(actor.page);
    await chat.waitUntilJoined();
    return { actor, chat };
  }

  it('plays the login sound, shows the key in the details, runs /simulation and starts a DM from the list', async () => {
    const suffix = Date.now().toString(36).slice(-5);
    const aliceKey = await makeRegisteredKey(suite.server.baseUrl, { username: `alice${suffix}` });
    const bobKey = await makeRegisteredKey(suite.server.baseUrl, { username: `bob${suffix}` });
    const alice = await keyHolder(`alice${suffix}`, aliceKey, { 'secure-channel-theme': 'matrix' });
    const bob = await keyHolder(`bob${suffix}`, bobKey, {
      'secure-channel-theme': 'nsa',
      'chat-sound-settings': JSON.stringify({
        enabled: true,
        volume: 0.3,
        messageSound: true,
        systemSound: true,
        authSound: false,
      }),
    });
    const carol = await newActor(suite.browser, 'carol', {
      storage: { securechannel_access_mode: 'public' },
    });
    suite.actors.push(carol);
    await carol.page.goto(`${suite.server.baseUrl}/chat/${alice.chat.secureId()}`);
    const carolChat = new ChatPageObject(carol.page);
    await carolChat.waitUntilJoined();
    const carolName = (await carolChat.callsign().textContent())?.trim() ?? '';

    // The login sound: alice's triad played; bob turned it off.
    expect((await notesOf(alice.actor.page)).filter((wave) => wave === 'triangle')).toHaveLength(3);
    expect(await notesOf(bob.actor.page)).not.toContain('triangle');
    // After the last note the page lets the audio device go (no silence rendered while idle).
    await expect
      .poll(async () => (await notesOf(alice.actor.page)).at(-1), { timeout: 5000 })
      .toBe('suspend');

    // Security details: key id, level and capabilities of alice's key; no prompt to get a key.
    expect(await alice.actor.page.getByTestId('get-key-prompt').count()).toBe(0);
    await alice.actor.page.getByTestId('security-details-toggle').click();
    await alice.actor.page.getByTestId('details-key-id').getByText(aliceKey.keyId).waitFor();
    expect(await alice.actor.page.getByTestId('details-key-level').textContent()).toBe('USER');
    expect(await alice.actor.page.getByTestId('details-key-capabilities').textContent()).toBe(
      'chat, upload',
    );
    await shoot(alice.actor.page, 'security-details-matrix');
    await alice.actor.page.getByTestId('security-details-toggle').click();

    // /simulation: labelled drill lines on alice's screen only.
    await waitForKeysFrom(alice.actor.page, bob.chat);
    await bob.chat.send('status report');
    await alice.chat.message('status report').waitFor();
    await alice.chat.send('/simulation');
    await alice.chat.systemLine(SIMULATION_TEXT.intro).waitFor();
    const drill = alice.actor.page.locator('[data-testid="system-message"][data-simulated="true"]');
    expect(await drill.filter({ hasText: 'Relay view: node' }).count()).toBeGreaterThan(0);
    expect(await drill.filter({ hasText: 'status report' }).count()).toBe(0);
    expect(await alice.actor.page.getByTestId('simulation-tag').count()).toBe(await drill.count());
    await shoot(alice.actor.page, 'simulation-matrix');
    expect(await bob.chat.systemLine(SIMULATION_TEXT.intro).count()).toBe(0);
    await bob.chat.send('/simulation');
    await bob.chat.systemLine(SIMULATION_TEXT.intro).waitFor();
    await bob.actor.page.getByTestId('security-details-toggle').click();
    await bob.actor.page.getByTestId('details-key-id').getByText(bobKey.keyId).waitFor();
    await shoot(bob.actor.page, 'security-details-simulation-nsa');
    await bob.actor.page.getByTestId('security-details-toggle').click();

    // MSG on an anonymous member explains; on bob it opens NEW CONVERSATION with his secure id.
    await operatives(alice.actor.page);
    await row(alice.actor.page, carolName).getByTestId('member-message').click();
    await alice.chat.systemLine(anonymousMemberText(carolName)).waitFor();
    await operatives(bob.actor.page);
    await row(bob.actor.page, `alice${suffix}`).getByTestId('member-message').waitFor();
    await shoot(bob.actor.page, 'operatives-message-nsa');
    await shoot(alice.actor.page, 'operatives-message-matrix');
    await row(alice.actor.page, `bob${suffix}`).getByTestId('member-message').click();
    await alice.actor.page.waitForURL(/\/direct-messages$/);
    const recipient = alice.actor.page.getByTestId('dm-recipient-input');
    await recipient.waitFor();
    expect(await recipient.inputValue()).toBe(secureIdForKey(bobKey.keyId));
    await alice.actor.page.getByTestId('dm-recipient-found').waitFor();
  }, 180_000);
});
