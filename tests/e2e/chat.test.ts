/**
 * Live chat between two browsers (spec 000 §2 "Chat room screen", §4, §5, §7).
 *
 * Scenario: alice and bob enter the public channel as anonymous visitors. A message alice types
 * reaches bob under her callsign, counts down and self-destructs; bob sees her typing; Enter
 * sends and Shift+Enter breaks the line; whitespace cannot be sent; a stealth message stays
 * redacted until bob clicks it; /pong is refused to an anonymous visitor; when the server drops
 * the socket the browser comes back to the room by itself, and after a normal close (which is
 * not retried) the banner offers RECONNECT, which restores the chat.
 *
 * The server runs with MESSAGE_TTL_SECONDS=4, so expiry is observed without long waits. The
 * tests that only talk in the public channel share one alice and one bob (`suite.kept`); each
 * sends text no other test sends and leaves the input and the stealth toggle as it found them.
 */
import { describe, expect, it } from 'vitest';
import { TEXT } from '../../shared/protocol/errors.js';
import { type Actor, browserSuite, newActor, seriousAxeViolations } from './support/browser.js';
import { ChatPageObject } from './pages/chat-page.js';
import { waitForKeysFrom } from './pages/security-status.js';

const PUBLIC = { securechannel_access_mode: 'public' };

describe('live chat in the browser', () => {
  const suite = browserSuite({ env: { MESSAGE_TTL_SECONDS: '4' } });
  let serial = 0;

  /** A visitor in the public channel, joined and ready to type; closed after the test unless kept. */
  async function enter(
    name: string,
    actors: Actor[] = suite.actors,
  ): Promise<{ actor: Actor; chat: ChatPageObject }> {
    const actor = await newActor(suite.browser, name, { storage: PUBLIC });
    actors.push(actor);
    await actor.page.goto(`${suite.server.baseUrl}/`);
    const chat = new ChatPageObject(actor.page);
    await chat.waitUntilJoined();
    return { actor, chat };
  }

  /** alice and bob in the public channel, each holding the other's keys, kept from test to test. */
  const talking = suite.kept(async (kept) => {
    const alice = await enter('alice', kept);
    const bob = await enter('bob', kept);
    await waitForKeysFrom(bob.actor.page, alice.chat);
    await waitForKeysFrom(alice.actor.page, bob.chat);
    return { alice, bob };
  });

  /** Text no other test sends, so history from earlier tests cannot match it. */
  const unique = (label: string) => `${label} #${(serial += 1)}-${Date.now().toString(36)}`;

  it("shows alice's message to bob under her callsign, counts it down and destroys it", async () => {
    const {
      alice: { chat: alice },
      bob: { chat: bob },
    } = await talking();
    const callsign = (await alice.callsign().textContent()) ?? '';
    const text = unique('meet at the safehouse');

    await alice.send(text);
    const received = bob.message(text);
    await received.waitFor();
    expect(await received.getByTestId('message-sender').textContent()).toBe(callsign);
    // End-to-end encrypted: the row names its type and carries no PLAINTEXT tag.
    expect(await received.getByTestId('plaintext-tag').count()).toBe(0);
    expect(await received.getByTestId('message-encryption').textContent()).toMatch(
      /^\[[A-Za-z0-9-]+\]$/,
    );
    await received
      .getByTestId('message-countdown')
      .filter({ hasText: 'SELF_DESTRUCT_ACTIVE' })
      .waitFor();
    await received.waitFor({ state: 'detached', timeout: 10_000 });
    await alice.message(text).waitFor({ state: 'detached', timeout: 10_000 });
  });

  it('tells bob while alice is typing and stops after a second of silence', async () => {
    const {
      alice: { chat: alice },
      bob: { chat: bob },
    } = await talking();
    const callsign = (await alice.callsign().textContent()) ?? '';

    await alice.input().pressSequentially('hel');
    const typing = bob.typingIndicator().filter({ hasText: `${callsign} is typing...` });
    await typing.waitFor();
    await typing.waitFor({ state: 'detached', timeout: 5000 });
    expect(await alice.typingIndicator().textContent()).toBe('');
    await alice.input().fill('');
  });

  it('sends on Enter, breaks the line on Shift+Enter and never sends whitespace', async () => {
    const {
      alice: { actor: aliceActor, chat: alice },
    } = await talking();
    // The session timer counts on by itself (it ticks apart from the rest of the page).
    const timer = aliceActor.page.getByTestId('session-timer');
    const startedAt = (await timer.textContent()) ?? '';
    expect(startedAt).toMatch(/^\d\d:\d\d$/);
    await aliceActor.page.waitForFunction(
      (before) => document.querySelector('[data-testid="session-timer"]')?.textContent !== before,
      startedAt,
    );
    const first = unique('line one');

    await alice.input().pressSequentially(first);
    await alice.input().press('Shift+Enter');
    await alice.input().pressSequentially('line two');
    expect(await alice.input().inputValue()).toBe(`${first}\nline two`);
    await alice.input().press('Enter');
    const sent = alice.message(first);
    await sent.waitFor();
    expect(await sent.getByTestId('message-text').innerText()).toBe(`${first}\nline two`);
    expect(await alice.input().inputValue()).toBe('');

    const before = await alice.messages().count();
    await alice.input().fill('   \n  ');
    expect(await alice.sendButton().isDisabled()).toBe(true);
    await alice.input().press('Enter');
    // A message sent after the whitespace arrives alone: the whitespace never went out.
    const marker = unique('after whitespace');
    await alice.send(marker);
    await alice.message(marker).waitFor();
    expect(await alice.messages().count()).toBe(before + 1);
  });

  it('keeps a stealth message redacted for bob until he clicks it', async () => {
    const {
      alice: { chat: alice },
      bob: { actor: bobActor, chat: bob },
    } = await talking();
    const secret = unique('the package is in locker');

    await alice.toggleStealth();
    await alice.send(secret);
    const redacted = bobActor.page.getByTestId('stealth-redacted').last();
    await redacted.waitFor();
    expect(await bob.message(secret).count()).toBe(0);
    await redacted.click();
    await bob.message(secret).waitFor();
    await alice.toggleStealth();
  });

  it('refuses /pong to an anonymous visitor on screen and sends nothing', async () => {
    const {
      alice: { chat: alice },
      bob: { chat: bob },
    } = await talking();

    await alice.send('/pong');
    await alice.systemLine(TEXT.pongRequiresKey).waitFor();
    expect(await alice.input().inputValue()).toBe('');
    const marker = unique('after pong');
    await alice.send(marker);
    await bob.message(marker).waitFor();
    expect(await bob.message('/pong').count()).toBe(0);
    expect(await alice.message('/pong').count()).toBe(0);
  });

  it('switches channel from the channel list and talks only in the new one', async () => {
    const room = await suite.server.rooms.createRoom({
      name: unique('side-room').replace(/[^a-z0-9-]/gi, '-'),
      isPrivate: false,
      securityLevel: 'public',
      selfDestructTimer: null,
    });
    const { actor: aliceActor, chat: alice } = await enter('alice');
    const { chat: bob } = await enter('bob');

    await aliceActor.page
      .getByRole('navigation', { name: 'Channels' })
      .getByRole('link', { name: new RegExp(room.name) })
      .click();
    await aliceActor.page.waitForURL(new RegExp(`/chat/${room.secureId}$`));
    await alice.roomName().filter({ hasText: room.name.toUpperCase() }).waitFor();
    await alice.waitUntilJoined();
    expect(await alice.connectionStatus().textContent()).toBe('1 node active');

    const text = unique('side channel only');
    await alice.send(text);
    await alice.message(text).waitFor();
    const marker = unique('public marker');
    await bob.send(marker);
    await bob.message(marker).waitFor();
    expect(await bob.message(text).count()).toBe(0);
    expect(await alice.message(marker).count()).toBe(0);
  });

  it('counts unread messages in the title while the tab is hidden', async () => {
    const {
      alice: { actor: aliceActor },
      bob: { chat: bob },
    } = await talking();
    const setHidden = (hidden: boolean) =>
      aliceActor.page.evaluate((value) => {
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => value });
        document.dispatchEvent(new Event('visibilitychange'));
      }, hidden);

    await setHidden(true);
    await bob.send(unique('unread one'));
    await bob.send(unique('unread two'));
    await aliceActor.page.waitForFunction(() => document.title.startsWith('(2) '));
    await setHidden(false);
    await aliceActor.page.waitForFunction(() => !document.title.startsWith('('));
    expect(await aliceActor.page.title()).toBe('#Public Channel · SecureChannel');
  });

  it('rejoins by itself when the server drops the socket, and offers RECONNECT after a normal close', async () => {
    const { chat: alice } = await enter('alice');
    const { actor: bobActor, chat: bob } = await enter('bob');

    // An abnormal close: the automatic retry (within 1 s, issue 35) brings it back to the room.
    suite.server.hub.closeAll(4000, 'test');
    await alice.systemLine(/RECONNECTED: /).waitFor({ timeout: 10_000 });
    await alice.connectionBanner().waitFor({ state: 'detached' });
    await alice.waitUntilJoined();
    // bob's retry has its own random wait: he is back too before the next close.
    await bob.systemLine(/RECONNECTED: /).waitFor({ timeout: 10_000 });

    // A normal close is not retried: the banner stays until RECONNECT.
    suite.server.hub.closeAll(1000, 'test');
    await alice.connectionBanner().waitFor();
    expect(await alice.connectionStatus().textContent()).toBe('CONNECTION_LOST');
    expect(await alice.input().isDisabled()).toBe(true);
    await alice.reconnect();
    await alice.connectionBanner().waitFor({ state: 'detached' });
    await alice.waitUntilJoined();
    await bob.reconnect();
    await bob.waitUntilJoined();
    expect(await alice.connectionStatus().textContent()).toMatch(/^\d+ nodes? active$/);
    await waitForKeysFrom(bobActor.page, alice);

    const text = unique('back online');
    await alice.send(text);
    await bob.message(text).waitFor();
  });
});

describe('chat screen accessibility', () => {
  // The default 30 s lifetime: a message that is fading out (its last 3 s) is meant to lose
  // contrast, so axe looks at one in its readable life.
  const suite = browserSuite();

  it('has no serious or critical violations with messages and a system line on screen', async () => {
    const alice = await newActor(suite.browser, 'alice', { storage: PUBLIC });
    const bob = await newActor(suite.browser, 'bob', { storage: PUBLIC });
    suite.actors.push(alice, bob);
    const aliceChat = new ChatPageObject(alice.page);
    const bobChat = new ChatPageObject(bob.page);
    for (const actor of [alice, bob]) await actor.page.goto(`${suite.server.baseUrl}/`);
    await aliceChat.waitUntilJoined();
    await bobChat.waitUntilJoined();

    await waitForKeysFrom(alice.page, bobChat);
    await bobChat.send('a message from someone else');
    await aliceChat.message('a message from someone else').waitFor();
    await aliceChat.toggleStealth();
    await aliceChat.send('a stealth message of my own');
    await alice.page.getByTestId('stealth-redacted').waitFor();
    await aliceChat.send('/pong');
    await aliceChat.systemLine(TEXT.pongRequiresKey).waitFor();
    expect(await seriousAxeViolations(alice.page)).toEqual([]);
  });
});
