/**
 * Channel dialogs between two browsers (spec 000 §2, §4 "Channel creation", "Timer dialog",
 * "Countdown banner", "Access terminal", §5, §8).
 *
 * Scenario: alice, an anonymous visitor in the public channel, creates a classified channel with
 * an access code through CREATE; the terminal log runs, the success card shows, and she lands in
 * the new channel without typing the code again. bob opens the channel's /room link and meets the
 * access terminal: a wrong code is denied (FAILED ATTEMPTS 1/3), the right one is granted and he
 * reads what alice sends. alice sets a 5-minute timer through TIMER, confirming it, and both see
 * the countdown banner turn critical (red: under 5 minutes). carol runs out of attempts and is
 * sent back where she came from; dave is refused a timer on the public channel; erin cannot
 * create a classified channel without a code.
 */
import { describe, expect, it } from 'vitest';
import { serializeKeyFile } from '../../shared/crypto/key-file-schema.js';
import { makeRegisteredKey } from '../support/keys.js';
import { LandingPageObject } from './pages/landing-page.js';
import { TEXT } from '../../shared/protocol/errors.js';
import {
  type Actor,
  browserSuite,
  newActor,
  seriousAxeViolations,
  watchFor,
} from './support/browser.js';
import { CHAT_URL, ChatPageObject } from './pages/chat-page.js';
import { waitForKeysFrom } from './pages/security-status.js';
import {
  AccessTerminalObject,
  CountdownBannerObject,
  CreateChannelDialogObject,
  SelfDestructTimerDialogObject,
  toastWithTitle,
} from './pages/room-dialogs.js';

const PUBLIC = { securechannel_access_mode: 'public' };
const ACCESS_CODE = 'nightfall-7731';

describe('channel dialogs in the browser', () => {
  const suite = browserSuite();

  async function actor(name: string): Promise<Actor> {
    const created = await newActor(suite.browser, name, { storage: PUBLIC });
    suite.actors.push(created);
    return created;
  }

  /** An anonymous visitor, joined to the public channel. */
  async function inPublicChannel(name: string) {
    const person = await actor(name);
    await person.page.goto(`${suite.server.baseUrl}/`);
    const chat = new ChatPageObject(person.page);
    await chat.waitUntilJoined();
    return { person, chat };
  }

  /**
   * alice, a key holder (only a room's creator, moderators and service admins may set its timer,
   * and a creator is known by her key), creates a classified channel through CREATE and lands in
   * it; returns its secure id.
   */
  async function aliceCreatesClassifiedChannel(name: string) {
    const alice = await actor('alice');
    const keyFile = await makeRegisteredKey(suite.server.baseUrl, {
      username: `alice${Date.now() % 100000}`,
    });
    const landing = new LandingPageObject(alice.page, suite.server.baseUrl);
    await landing.open();
    await landing.chooseKeyFile('alice.sck', serializeKeyFile(keyFile));
    await landing.authenticateButton().click();
    const chat = new ChatPageObject(alice.page);
    await chat.waitUntilJoined();
    const create = new CreateChannelDialogObject(alice.page);
    await create.open();
    // Spec 000 §5: the submit stays disabled until the name has a non-blank character.
    expect(await create.submitButton().isDisabled()).toBe(true);
    await create.dialog().getByLabel('Channel name').fill('   ');
    expect(await create.submitButton().isDisabled()).toBe(true);
    await create.fill({ name, clearance: 'classified', accessCode: ACCESS_CODE });
    // The success card shows for 2 s and the toast for 5: both watched for from the submit on.
    const established = watchFor(create.log().getByText('> CHANNEL ESTABLISHED'));
    const success = watchFor(create.successCard());
    const created = watchFor(toastWithTitle(alice.page, TEXT.channelCreated));
    await create.submit();
    await established;
    await success;
    await created;
    // The dialog closes 2 s after success and alice is taken into the new channel.
    await create.dialog().waitFor({ state: 'detached' });
    await alice.page.waitForURL(CHAT_URL);
    await chat.roomName().filter({ hasText: name.toUpperCase() }).waitFor();
    await chat.waitUntilJoined();
    return { alice, chat, secureId: chat.secureId() };
  }

  it('creates a classified channel, lets bob in with the code only, and counts down a timer', async () => {
    const name = `ops-${Date.now().toString(36)}`;
    const { alice, chat: aliceChat, secureId } = await aliceCreatesClassifiedChannel(name);
    // The creator needed no code: her grant came with the creation.
    expect(
      await new AccessTerminalObject(alice.page).dialog().count(),
      'alice must not meet the access terminal',
    ).toBe(0);

    const bob = await actor('bob');
    await bob.page.goto(`${suite.server.baseUrl}/room/${secureId}`);
    const terminal = new AccessTerminalObject(bob.page);
    await terminal.dialog().waitFor();
    expect(await terminal.attempts().textContent()).toBe('FAILED ATTEMPTS 0/3');
    // The access terminal is a labelled modal with nothing serious for axe to report.
    expect(await seriousAxeViolations(bob.page)).toEqual([]);

    await terminal.enter('not-the-code');
    await terminal.log().getByText(TEXT.accessDenied, { exact: true }).waitFor();
    await terminal.log().getByText(TEXT.invalidCredentials, { exact: true }).waitFor();
    await terminal.log().getByText(TEXT.securityAlertLogged, { exact: true }).waitFor();
    await terminal.log().getByText(TEXT.tryAgain, { exact: true }).waitFor();
    expect(await terminal.attempts().textContent()).toBe('FAILED ATTEMPTS 1/3');

    await terminal.enter(ACCESS_CODE);
    await terminal.log().getByText(TEXT.accessGranted, { exact: true }).waitFor();
    await terminal.dialog().waitFor({ state: 'detached' });
    const bobChat = new ChatPageObject(bob.page);
    await bobChat.roomName().filter({ hasText: name.toUpperCase() }).waitFor();
    await bob.page.locator('[data-testid="message-input"]:enabled').waitFor();
    // The timer is the creator's (and moderators'): bob, an anonymous member, is not offered it.
    expect(await bob.page.getByRole('button', { name: 'TIMER', exact: true }).count()).toBe(0);

    // bob has just come in: alice's next message is under a chain he holds once he has her keys.
    await waitForKeysFrom(bob.page, aliceChat);
    const text = `eyes only ${Date.now().toString(36)}`;
    await aliceChat.send(text);
    await bobChat.message(text).waitFor();

    // alice sets a 5-minute timer, with the confirmation step.
    const timer = new SelfDestructTimerDialogObject(alice.page);
    await timer.open();
    expect(await timer.configureButton().isDisabled(), 'unchanged value').toBe(true);
    await timer.choose('5 MINUTES');
    await timer.configure();
    await timer.abort();
    expect(await timer.confirmation().count(), 'abort returns to the choice').toBe(0);
    await timer.configure();
    const updated = watchFor(
      toastWithTitle(alice.page, TEXT.timerUpdated).filter({
        hasText: 'Auto-destruct in 5 minutes',
      }),
    );
    await timer.confirm();
    await updated;
    await timer.dialog().waitFor({ state: 'detached' });

    // Both see the banner; 5:00 is orange, and within a second it is under 5 minutes: red.
    for (const person of [alice, bob]) {
      const banner = new CountdownBannerObject(person.page);
      await banner.banner().waitFor();
      await banner.waitForTone('critical');
      expect(await banner.banner().getAttribute('class')).toContain('text-danger');
      expect(await banner.timer().textContent()).toMatch(/^4m [0-5][0-9]s$/);
    }
  });

  it('closes the terminal after three wrong codes and sends the visitor away', async () => {
    const name = `vault-${Date.now().toString(36)}`;
    const { secureId } = await aliceCreatesClassifiedChannel(name);

    // carol is in the public channel when she follows a link to the locked one.
    const { person: carol, chat } = await inPublicChannel('carol');
    const publicSecureId = chat.secureId();
    await carol.page.goto(`${suite.server.baseUrl}/room/${secureId}`);
    const terminal = new AccessTerminalObject(carol.page);
    await terminal.dialog().waitFor();
    for (const attempt of [1, 2, 3]) {
      await terminal.enter(`guess-${attempt}`);
      await terminal
        .attempts()
        .filter({ hasText: `FAILED ATTEMPTS ${attempt}/3` })
        .waitFor();
      if (attempt < 3)
        await terminal
          .log()
          .getByText(TEXT.tryAgain)
          .nth(attempt - 1)
          .waitFor();
    }
    await terminal.log().getByText(TEXT.maxAttemptsReached, { exact: true }).waitFor();
    await terminal.dialog().waitFor({ state: 'detached' });
    // Spec 000 §2: leaving the terminal takes the browser back, here to the public channel.
    await chat.waitUntilLoaded();
    expect(chat.secureId()).toBe(publicSecureId);
  });

  it('offers no TIMER on the public channel, where nobody may set one', async () => {
    const { person: dave, chat } = await inPublicChannel('dave');
    await chat.roomName().waitFor();
    // The member list, the moderation role and the default room have all arrived.
    await dave.page.getByTestId('toggle-operatives').waitFor();
    expect(await dave.page.getByRole('button', { name: 'TIMER', exact: true }).count()).toBe(0);
    expect(await new CountdownBannerObject(dave.page).banner().count()).toBe(0);
  });

  it('refuses a classified channel without an access code', async () => {
    const { person: erin } = await inPublicChannel('erin');
    const create = new CreateChannelDialogObject(erin.page);
    await create.open();
    await create.fill({ name: 'no-code', clearance: 'classified' });
    await create.submit();
    await toastWithTitle(erin.page, TEXT.classifiedNeedsCode).waitFor();
    expect(await create.log().count(), 'nothing was sent').toBe(0);
    expect(await seriousAxeViolations(erin.page)).toEqual([]);
  });
});
