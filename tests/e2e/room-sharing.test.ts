/**
 * Private channels that can be shared and found again (issue 33, item 3), and the chat screen's
 * readouts at a readable size (item 6), in the browser.
 *
 * Scenario: alice, an anonymous visitor, creates a classified channel. Its invite panel offers the
 * link; she puts the access code in the link's fragment and copies it. bob opens that link in a
 * second browser and is let in without typing anything: the terminal verifies the code from the
 * fragment, the fragment leaves his address bar, and no request, socket frame or server log line
 * ever carries the code. alice leaves for the public channel, reloads, and finds her channel in
 * her own list; a channel that self-destructs disappears from it. Every visible text on the chat
 * screen is at least 12 px, in two themes and at 390 px width.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEXT } from '../../shared/protocol/errors.js';
import {
  type Actor,
  type ActorOptions,
  browserSuite,
  newActor,
  watchFor,
} from './support/browser.js';
import { smallTexts } from './support/legibility.js';
import { ChatPageObject } from './pages/chat-page.js';
import {
  AccessTerminalObject,
  CreateChannelDialogObject,
  InviteLinkObject,
  ownChannel,
  toastWithTitle,
} from './pages/room-dialogs.js';

const PUBLIC = { securechannel_access_mode: 'public' };
const ACCESS_CODE = 'vesper-4417';
const SHOTS = path.resolve(import.meta.dirname, '../../test-results/room-sharing');

describe('private channels: invite links and the own channel list', () => {
  const suite = browserSuite();

  async function actor(
    name: string,
    options: Pick<ActorOptions, 'viewport' | 'reducedMotion'> = {},
  ) {
    const created: Actor = await newActor(suite.browser, name, { storage: PUBLIC, ...options });
    suite.actors.push(created);
    return created;
  }

  /** An anonymous visitor creates a classified channel through CREATE and lands in it. */
  async function createsChannel(person: Actor, name: string, timer?: string) {
    await person.page.goto(`${suite.server.baseUrl}/`);
    const chat = new ChatPageObject(person.page);
    await chat.waitUntilJoined();
    const create = new CreateChannelDialogObject(person.page);
    await create.open();
    await create.fill({ name, clearance: 'classified', accessCode: ACCESS_CODE, timer });
    const created = watchFor(toastWithTitle(person.page, TEXT.channelCreated));
    await create.submit();
    await created;
    await create.dialog().waitFor({ state: 'detached' });
    await chat.roomName().filter({ hasText: name.toUpperCase() }).waitFor();
    await chat.waitUntilJoined();
    return { chat, secureId: chat.secureId() };
  }

  it('lets an invitee in from a link with the code in its fragment, which reaches no server', async () => {
    const alice = await actor('alice');
    await alice.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: suite.server.baseUrl,
    });
    const name = `relay-${Date.now().toString(36)}`;
    const { secureId } = await createsChannel(alice, name);

    // The creator has the invite control; by default the link carries no code.
    const invite = new InviteLinkObject(alice.page);
    await invite.open();
    const plain = await invite.link();
    expect(new URL(plain).pathname).toBe(`/room/${secureId}`);
    expect(new URL(plain).hash).toBe('');
    expect(plain).not.toContain(ACCESS_CODE);
    await invite.includeCode();
    const link = await invite.link();
    expect(new URL(link).hash).toBe(`#code=${ACCESS_CODE}`);
    expect(`${new URL(link).pathname}${new URL(link).search}`).not.toContain(ACCESS_CODE);
    const copied = watchFor(toastWithTitle(alice.page, TEXT.copied));
    await invite.copy();
    await copied;
    expect(await alice.page.evaluate(() => navigator.clipboard.readText())).toBe(link);

    // bob opens the link; everything his browser sends is recorded.
    const bob = await actor('bob');
    const sent: string[] = [];
    bob.page.on('request', (request) => {
      sent.push(request.url(), request.postData() ?? '', JSON.stringify(request.headers()));
    });
    bob.page.on('websocket', (socket) => {
      sent.push(socket.url());
      socket.on('framesent', (frame) => sent.push(String(frame.payload)));
    });
    await bob.page.goto(link);
    const bobChat = new ChatPageObject(bob.page);
    await bobChat.roomName().filter({ hasText: name.toUpperCase() }).waitFor();
    await bob.page.locator('[data-testid="message-input"]:enabled').waitFor();
    // He typed nothing: the terminal took the code from the fragment, and is gone.
    expect(await new AccessTerminalObject(bob.page).dialog().count()).toBe(0);
    // The fragment left the address bar (and this history entry) at once.
    expect(await bob.page.evaluate(() => window.location.hash)).toBe('');
    expect(new URL(bob.page.url()).pathname).toBe(`/room/${secureId}`);

    // bob, now a member, can invite in turn.
    await new InviteLinkObject(bob.page).panel().waitFor();

    // Neither a request, a header, a body nor a socket frame carried the code or the fragment.
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.filter((text) => text.includes(ACCESS_CODE) || text.includes('#code='))).toEqual(
      [],
    );
    expect(suite.server.logs.text()).not.toContain(ACCESS_CODE);
  });

  it('keeps a created channel in the own list after leaving and reloading', async () => {
    const alice = await actor('alice');
    const name = `hideout-${Date.now().toString(36)}`;
    const { secureId } = await createsChannel(alice, name);

    await alice.page.goto(`${suite.server.baseUrl}/`);
    const chat = new ChatPageObject(alice.page);
    await chat.waitUntilJoined();
    expect(chat.secureId()).not.toBe(secureId);
    await ownChannel(alice.page, name).waitFor();
    await alice.page.reload();
    await chat.waitUntilJoined();
    await ownChannel(alice.page, name).click();
    await chat.roomName().filter({ hasText: name.toUpperCase() }).waitFor();
    expect(chat.secureId()).toBe(secureId);
    // Her grant ended when her socket left the room: the list finds the room, the code opens it.
    const terminal = new AccessTerminalObject(alice.page);
    await terminal.dialog().waitFor();
    await terminal.enter(ACCESS_CODE);
    await chat.waitUntilJoined();

    // Garbage in the stored list is ignored, not fatal.
    await alice.page.evaluate(() => localStorage.setItem('securechannel_known_rooms', '{{{'));
    await alice.page.reload();
    await chat.waitUntilLoaded();
    expect(await alice.page.getByTestId('own-channels').count()).toBe(0);
  });

  it('drops a channel that self-destructed from the own list', async () => {
    // The room counts down 30 s with a pulsing banner, which a headless Chromium composites 60
    // times a second in software; for a visitor who asks for reduced motion it does not pulse
    // (the list is what this test is about).
    const alice = await actor('alice', { reducedMotion: true });
    const name = `burner-${Date.now().toString(36)}`;
    const { secureId } = await createsChannel(alice, name, '30 SECONDS');
    await alice.page.goto(`${suite.server.baseUrl}/`);
    await new ChatPageObject(alice.page).waitUntilJoined();
    await ownChannel(alice.page, name).waitFor();

    // The server destroys it when its time comes; the lookup then answers 404.
    await expect
      .poll(async () => (await fetch(`${suite.server.baseUrl}/api/rooms/${secureId}`)).status, {
        timeout: 75_000,
        interval: 1_000,
      })
      .toBe(404);
    await alice.page.reload();
    await new ChatPageObject(alice.page).waitUntilJoined();
    await alice.page.getByTestId('own-channels').waitFor({ state: 'detached' });
    await expect
      .poll(() => alice.page.evaluate(() => localStorage.getItem('securechannel_known_rooms')))
      .not.toContain(secureId);
  }, 120_000);

  it('shows no visible chat text under 12 px, in two themes and at 390 px', async () => {
    mkdirSync(SHOTS, { recursive: true });
    for (const theme of ['classic', 'cia']) {
      const person = await newActor(suite.browser, theme, {
        storage: { ...PUBLIC, 'secure-channel-theme': theme },
      });
      suite.actors.push(person);
      await createsChannel(person, `legible-${theme}-${Date.now().toString(36)}`);
      await new InviteLinkObject(person.page).open();
      await person.page.getByTestId('security-details-toggle').click();
      await person.page.getByTestId('security-details').waitFor();
      await person.page.screenshot({ path: path.join(SHOTS, `chat-${theme}.png`), fullPage: true });
      expect(await smallTexts(person.page, 12), theme).toEqual([]);
    }

    const narrow = await actor('narrow', { viewport: { width: 390, height: 844 } });
    await narrow.page.goto(`${suite.server.baseUrl}/`);
    await new ChatPageObject(narrow.page).waitUntilJoined();
    await narrow.page.screenshot({ path: path.join(SHOTS, 'chat-390.png'), fullPage: true });
    expect(await smallTexts(narrow.page, 12), '390 px').toEqual([]);
    // Nothing spills sideways at 390 px.
    expect(
      await narrow.page.evaluate(() => document.documentElement.scrollWidth),
    ).toBeLessThanOrEqual(390);
    // Two channels created through the dialog's animated log, three browsers: allow the time.
  }, 180_000);
});
