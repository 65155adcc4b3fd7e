/**
 * Room moderation in the browser (issue 23; spec 000 §3 "Room user" roles and badges).
 *
 * Scenario: alice logs in with her key file and creates a channel (she is its admin: the ADMIN
 * badge); bob logs in with his key file and carol is an anonymous visitor, both in alice's
 * channel. alice opens the member menu on bob's row and makes him a moderator: everyone sees the
 * system message and bob's MOD shield. bob, with the keyboard only, opens the member menu on
 * carol's row (it offers no admin powers to a moderator) and mutes her for 10 minutes: everyone
 * sees the system message, and carol's input says until when she is muted. alice reads the
 * moderation log. Screenshots of the member menu and the log go to SCREENSHOT_DIR in two themes
 * when it is set.
 *
 * Then: a visitor kicked while the server still answers his key frames keeps the removal notice.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { serializeKeyFile, type KeyFile } from '../../shared/crypto/key-file-schema.js';
import { RoomSchema } from '../../shared/protocol/http/rooms.js';
import { login, makeRegisteredKey } from '../support/keys.js';
import { ChatPageObject } from './pages/chat-page.js';
import { LandingPageObject } from './pages/landing-page.js';
import { type Actor, browserSuite, newActor } from './support/browser.js';

const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? null;

describe('room moderation in the browser', () => {
  const suite = browserSuite();

  async function actor(name: string, storage: Record<string, string>): Promise<Actor> {
    const created = await newActor(suite.browser, name, { storage });
    suite.actors.push(created);
    return created;
  }

  async function keyHolder(name: string, keyFile: KeyFile, secureId: string, theme: string) {
    const person = await actor(name, { 'secure-channel-theme': theme });
    const landing = new LandingPageObject(person.page, suite.server.baseUrl);
    await landing.open();
    await landing.chooseKeyFile(`${name}.sck`, serializeKeyFile(keyFile));
    await landing.authenticateButton().click();
    await new ChatPageObject(person.page).waitUntilJoined();
    await person.page.goto(`${suite.server.baseUrl}/chat/${secureId}`);
    const chat = new ChatPageObject(person.page);
    await chat.waitUntilJoined();
    return { person, chat };
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

  async function shoot(page: Page, name: string) {
    if (!SCREENSHOT_DIR) return;
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
  }

  it('lets a room admin appoint a moderator who mutes a visitor, with badges and system messages for all', async () => {
    const suffix = Date.now().toString(36).slice(-5);
    const aliceKey = await makeRegisteredKey(suite.server.baseUrl, { username: `alice${suffix}` });
    const bobKey = await makeRegisteredKey(suite.server.baseUrl, { username: `bob${suffix}` });
    const token = (await login(suite.server.baseUrl, aliceKey)).body.sessionToken as string;
    const room = RoomSchema.parse(
      await (
        await fetch(`${suite.server.baseUrl}/api/rooms`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ name: `ops-${suffix}` }),
        })
      ).json(),
    );

    const { person: alice } = await keyHolder('alice', aliceKey, room.secureId, 'classic');
    const { person: bob } = await keyHolder('bob', bobKey, room.secureId, 'cyberpunk');
    const carol = await actor('carol', { securechannel_access_mode: 'public' });
    await carol.page.goto(`${suite.server.baseUrl}/chat/${room.secureId}`);
    const carolChat = new ChatPageObject(carol.page);
    await carolChat.waitUntilJoined();
    const carolName = (await carolChat.callsign().textContent())?.trim() ?? '';
    expect(carolName).toMatch(/^[A-Za-z]+\d+$/);

    // alice, the room's admin, sees her badge and a menu on bob's row; makes him a moderator.
    await operatives(alice.page);
    await row(alice.page, aliceKey.username).getByText('ADMIN').waitFor();
    await row(alice.page, bobKey.username).getByTestId('member-menu').click();
    const menu = alice.page.getByTestId('member-menu-content');
    await menu.waitFor();
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual([
      'Mute 10 min',
      'Unmute',
      'Kick',
      'Ban 60 min',
      'Ban for good',
      'Make moderator',
    ]);
    await shoot(alice.page, 'member-menu-classic');
    await menu.getByTestId('member-action-appoint').click();

    const appointed = `${bobKey.username} is now a moderator (appointed by an admin)`;
    for (const page of [alice.page, bob.page, carol.page]) {
      await page.getByText(appointed).first().waitFor();
      await operatives(page);
      await row(page, bobKey.username).getByText('MOD').waitFor();
    }
    // Nobody offers a visitor's menu on the admin: carol sees no member menu at all.
    expect(await carol.page.getByTestId('member-menu').count()).toBe(0);

    // bob, moderator, reaches carol's menu with the keyboard and mutes her.
    const trigger = row(bob.page, carolName).getByTestId('member-menu');
    await trigger.waitFor();
    expect(await row(bob.page, aliceKey.username).getByTestId('member-menu').count()).toBe(0);
    await trigger.focus();
    await bob.page.keyboard.press('Enter');
    const bobMenu = bob.page.getByTestId('member-menu-content');
    await bobMenu.waitFor();
    expect(await bobMenu.getByRole('menuitem').allTextContents()).toEqual([
      'Mute 10 min',
      'Unmute',
      'Kick',
    ]);
    await shoot(bob.page, 'member-menu-cyberpunk');
    await bob.page.keyboard.press('Enter');

    const muted = `${carolName} was muted for 10 minutes by a moderator`;
    for (const page of [alice.page, bob.page, carol.page])
      await page.getByText(muted).first().waitFor();
    await carol.page.locator('[data-testid="message-input"]:disabled').waitFor();
    expect(await carolChat.input().getAttribute('placeholder')).toMatch(
      /^MUTED BY A MODERATOR UNTIL \d\d:\d\d UTC$/,
    );
    await shoot(carol.page, 'muted-visitor-classic');

    // alice reads the moderation log.
    await alice.page.getByTestId('open-moderation-log').click();
    const log = alice.page.getByTestId('moderation-log');
    await log.waitFor();
    const entries = log.getByTestId('moderation-entry');
    await entries.nth(1).waitFor();
    expect(await entries.nth(0).textContent()).toContain(
      `${bobKey.username} (moderator)MUTE 10 min${carolName}`,
    );
    expect(await entries.nth(1).textContent()).toContain('APPOINT MODERATOR');
    await shoot(alice.page, 'moderation-log-classic');

    // The same log in another theme.
    await alice.page.evaluate(() => window.localStorage.setItem('secure-channel-theme', 'matrix'));
    await alice.page.reload();
    await new ChatPageObject(alice.page).waitUntilJoined();
    await operatives(alice.page);
    await alice.page.getByTestId('open-moderation-log').click();
    await alice.page.getByTestId('moderation-entry').nth(1).waitFor();
    await shoot(alice.page, 'moderation-log-matrix');
    await alice.page.keyboard.press('Escape');
    await row(alice.page, carolName).getByTestId('member-menu').click();
    await alice.page.getByTestId('member-menu-content').waitFor();
    await shoot(alice.page, 'member-menu-matrix');
  }, 300_000);

  // A removal can overtake frames the member's browser sent while still inside (its key
  // agreement runs after the join): the server answers those with an error just after
  // removed_from_room. On a busy machine that happens by itself; here bob's socket is routed so
  // that it happens every time.
  it("keeps a kicked visitor's removal notice when the server answers frames the removal overtook", async () => {
    const suffix = Date.now().toString(36).slice(-5);
    const aliceKey = await makeRegisteredKey(suite.server.baseUrl, { username: `alice${suffix}` });
    const token = (await login(suite.server.baseUrl, aliceKey)).body.sessionToken as string;
    const room = RoomSchema.parse(
      await (
        await fetch(`${suite.server.baseUrl}/api/rooms`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ name: `ops-${suffix}` }),
        })
      ).json(),
    );
    const alice = await actor('alice', {
      securechannel_access_mode: 'authenticated',
      securechannel_session: token,
    });
    await alice.page.goto(`${suite.server.baseUrl}/chat/${room.secureId}`);
    const aliceChat = new ChatPageObject(alice.page);
    await aliceChat.waitUntilJoined();

    const bob = await actor('bob', { securechannel_access_mode: 'public' });
    const marker = 'all frames before this line are handled';
    let announced: string | null = null;
    let isRemoved = false;
    let onAnnounced = () => {};
    const hasAnnounced = new Promise<void>((resolve) => (onAnnounced = resolve));
    // In place before bob's page opens its socket (an unrouted socket would never be seen here).
    await bob.page.routeWebSocket(/\/chat-ws$/, (page) => {
      const server = page.connectToServer();
      page.onMessage((message) => {
        if (typeof message === 'string' && message.includes('"type":"key_announce"')) {
          announced = message;
          onAnnounced();
        }
        server.send(message);
      });
      server.onMessage((message) => {
        page.send(message);
        if (typeof message !== 'string') return;
        if (message.includes('"type":"removed_from_room"') && announced !== null) {
          // Sent by bob's socket after the server took it out, as a slow browser does.
          isRemoved = true;
          server.send(announced);
        } else if (isRemoved && message.includes('"frameType":"key_announce"')) {
          page.send(
            JSON.stringify({
              type: 'system_message',
              message: marker,
              level: 'info',
              timestamp: new Date().toISOString(),
            }),
          );
        }
      });
    });
    await bob.page.goto(`${suite.server.baseUrl}/chat/${room.secureId}`);
    const bobChat = new ChatPageObject(bob.page);
    await bobChat.waitUntilJoined();
    const bobName = (await bobChat.callsign().textContent())?.trim() ?? '';
    await hasAnnounced;

    // alice's role has arrived (her moderation log button shows); she kicks bob.
    await operatives(alice.page);
    await alice.page.getByTestId('open-moderation-log').waitFor();
    await aliceChat.send(`/kick ${bobName}`);
    await bob.page.getByText('REMOVED FROM CHANNEL').first().waitFor();
    await bobChat.systemLine(marker).waitFor();
    // The server's answer (Join a room before exchanging keys) came in between: it is not shown
    // over the removal's notice.
    expect(await bob.page.getByText('CHANNEL ERROR').count()).toBe(0);
    expect(await bob.page.getByText('Join a room before exchanging keys').count()).toBe(0);
    await bobChat.systemLine(/You were removed from this channel/).waitFor();
  }, 120_000);
});
