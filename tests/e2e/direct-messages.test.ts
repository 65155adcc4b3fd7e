/**
 * Direct messages in two browsers (spec 001 §2 "Direct messages screen", §4, §5, §7, §8).
 *
 * Scenario: alice and bob each log in by uploading their .sck on the landing page (so the key
 * file is in the tab's memory) and open DIRECT MESSAGES from the chat. alice starts a
 * conversation by bob's secure id, typed in lower case; the field shows it upper-cased and a
 * check mark once it resolves. bob's list gains the thread through dm_thread_updated; he opens it,
 * reads the decrypted text and replies; alice sees the reply. alice pulls the KILL SWITCH: after
 * the 3 s animation her thread closes, and bob's open thread closes with 'This conversation has
 * been deleted by the other party.'. Everything alice's page sends, over HTTP and WebSocket, is
 * recorded and holds neither plaintext.
 *
 * Then bob reloads: the key file is gone from memory, and the screen asks him to unlock his
 * conversations with his .sck; someone else's key file is refused.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { serializeKeyFile, type KeyFile } from '../../shared/crypto/key-file-schema.js';
import { secureIdForKey } from '../../shared/ids.js';
import { TEXT } from '../../shared/protocol/errors.js';
import { makeRegisteredKey } from '../support/keys.js';
import {
  type Actor,
  browserSuite,
  newActor,
  seriousAxeViolations,
  watchFor,
} from './support/browser.js';
import { LandingPageObject } from './pages/landing-page.js';
import { ChatPageObject } from './pages/chat-page.js';
import { DirectMessagesPageObject } from './pages/direct-messages.js';
import { smallTexts } from './support/legibility.js';

const FIRST_MESSAGE = 'The package is in locker 12, north terminal';
const REPLY = 'Copy that: moving at dawn via the east gate';
const SHOTS = path.resolve(import.meta.dirname, '../../test-results/direct-messages');

/** Everything a page sends: request bodies and WebSocket frames. */
function recordOutgoing(page: Page): string[] {
  const sent: string[] = [];
  page.on('request', (request) => {
    const body = request.postData();
    if (body) sent.push(body);
  });
  page.on('websocket', (socket) => {
    socket.on('framesent', (frame) => sent.push(String(frame.payload)));
  });
  return sent;
}

async function logInAndOpenDirectMessages(actor: Actor, baseUrl: string, key: KeyFile) {
  const landing = new LandingPageObject(actor.page, baseUrl);
  await landing.open();
  await landing.chooseKeyFile(`${key.username}.sck`, serializeKeyFile(key));
  await landing.authenticateButton().click();
  await new ChatPageObject(actor.page).waitUntilLoaded();
  const dms = new DirectMessagesPageObject(actor.page);
  await dms.openFromChat();
  await dms.waitUntilOnline();
  return dms;
}

describe('direct messages in the browser', () => {
  const suite = browserSuite();
  let aliceKey: KeyFile;
  let bobKey: KeyFile;

  beforeAll(async () => {
    [aliceKey, bobKey] = await Promise.all([
      makeRegisteredKey(suite.server.baseUrl, { username: 'alice' }),
      makeRegisteredKey(suite.server.baseUrl, { username: 'bob' }),
    ]);
  });

  it('lets alice and bob talk end to end, and the KILL SWITCH closes the thread on both sides', async () => {
    const alice = await newActor(suite.browser, 'alice');
    const bob = await newActor(suite.browser, 'bob');
    suite.actors.push(alice, bob);
    const aliceSent = recordOutgoing(alice.page);
    const bobSent = recordOutgoing(bob.page);
    const bobDms = await logInAndOpenDirectMessages(bob, suite.server.baseUrl, bobKey);
    const aliceDms = await logInAndOpenDirectMessages(alice, suite.server.baseUrl, aliceKey);
    await bob.page.getByText(TEXT.dmNoConversations).waitFor();
    expect(await aliceDms.mySecureId().textContent()).toBe(secureIdForKey(aliceKey.keyId));
    expect(await seriousAxeViolations(bob.page)).toEqual([]);

    // alice: a new conversation to bob's secure id, typed in lower case.
    const bobSecureId = secureIdForKey(bobKey.keyId);
    await aliceDms.newConversationButton().click();
    await aliceDms.recipientInput().pressSequentially(bobSecureId.toLowerCase());
    expect(await aliceDms.recipientInput().inputValue()).toBe(bobSecureId);
    await alice.page.getByTestId('dm-recipient-found').waitFor();
    expect(await aliceDms.recipientStatus().textContent()).toContain(TEXT.dmRecipientFound);
    expect(await aliceDms.sendMessageButton().isDisabled()).toBe(true);
    expect(await seriousAxeViolations(alice.page)).toEqual([]);
    await aliceDms.newMessageInput().fill(FIRST_MESSAGE);
    await aliceDms.newTimerSelect().selectOption('300');
    await aliceDms.sendMessageButton().click();
    await aliceDms.threadView().waitFor();
    await aliceDms.message(FIRST_MESSAGE).waitFor();
    expect(await alice.page.getByTestId('dm-thread-mode').textContent()).toContain(
      'End-to-End Encrypted',
    );

    // bob: the thread arrives through dm_thread_updated; he reads and replies.
    const aliceSecureId = secureIdForKey(aliceKey.keyId);
    await bobDms.threadRow(aliceSecureId).waitFor();
    expect(await bobDms.threadRow(aliceSecureId).getByTestId('dm-mode-badge').textContent()).toBe(
      'E2E',
    );
    await bobDms.threadRow(aliceSecureId).click();
    await bobDms.message(FIRST_MESSAGE).waitFor();
    expect(await bobDms.message(FIRST_MESSAGE).getByTestId('dm-message-sender').textContent()).toBe(
      aliceSecureId,
    );
    expect(await seriousAxeViolations(bob.page)).toEqual([]);
    await bobDms.reply(REPLY);
    await bobDms.message(REPLY).waitFor();
    expect(await bobDms.replyInput().inputValue()).toBe('');

    // alice sees the reply through dm_message_received.
    await aliceDms.message(REPLY).waitFor();

    // The KILL SWITCH asks first and names bob; cancelling destroys nothing.
    await aliceDms.killSwitch().click();
    await aliceDms.killConfirmation().waitFor();
    expect(await aliceDms.killConfirmation().textContent()).toContain('for you and bob');
    if (process.env.DM_SCREENSHOT_DIR)
      await alice.page.screenshot({
        path: `${process.env.DM_SCREENSHOT_DIR}/dm-kill-confirm.png`,
      });
    await aliceDms.cancelKill();
    await aliceDms.killConfirmation().waitFor({ state: 'detached' });
    expect(await aliceDms.destructOverlay().count()).toBe(0);
    await aliceDms.message(REPLY).waitFor();

    // alice destroys the thread: 3 s animation, then it closes on both sides. Bob's 2-second
    // animation and both 5-second notices are watched for from the start.
    const aliceNotice = watchFor(aliceDms.text(TEXT.dmThreadDestroyed), { timeout: 30_000 });
    const bobOverlay = watchFor(bobDms.destructOverlay(), { timeout: 30_000 });
    const bobNotice = watchFor(bobDms.text(TEXT.dmThreadDeletedByOther), { timeout: 30_000 });
    await aliceDms.killSwitch().click();
    await aliceDms.confirmKill();
    await aliceDms.destructOverlay().waitFor();
    await aliceDms.threadView().waitFor({ state: 'detached', timeout: 10_000 });
    await aliceNotice;
    await bobOverlay;
    await bobDms.threadView().waitFor({ state: 'detached', timeout: 10_000 });
    await bobNotice;
    await bob.page.getByText(TEXT.dmNoConversations).waitFor();

    // Neither browser ever sent a plaintext, over HTTP or over the socket.
    expect(aliceSent.some((body) => body.includes('dm_send_message'))).toBe(true);
    expect(aliceSent.some((body) => body.includes('"wrappedKeys"'))).toBe(true);
    expect(aliceSent.some((body) => body.includes('"encrypted"'))).toBe(true);
    expect([...alice.errors, ...bob.errors]).toEqual([]);
    for (const sent of [aliceSent, bobSent]) {
      const everything = sent.join('\n');
      expect(everything).not.toContain(FIRST_MESSAGE);
      expect(everything).not.toContain(REPLY);
      expect(everything).not.toContain('locker 12');
    }
    // Two browsers signing and checking ML-DSA-65 on a shared two-core machine: allow the time.
  }, 180_000);

  it('asks for the key file again after a reload and refuses someone else’s', async () => {
    const bob = await newActor(suite.browser, 'bob');
    suite.actors.push(bob);
    const dms = await logInAndOpenDirectMessages(bob, suite.server.baseUrl, bobKey);
    await dms.list().waitFor();

    await bob.page.reload();
    await dms.unlockPanel().waitFor();
    expect(await seriousAxeViolations(bob.page)).toEqual([]);
    await bob.page.getByRole('heading', { name: 'UNLOCK YOUR CONVERSATIONS' }).waitFor();
    await dms.chooseUnlockFile('alice.sck', serializeKeyFile(aliceKey));
    await bob.page.getByText(TEXT.dmWrongKeyFile, { exact: false }).waitFor();
    expect(await dms.list().count()).toBe(0);

    await dms.chooseUnlockFile('bob.sck', serializeKeyFile(bobKey));
    await dms.list().waitFor();
    await dms.waitUntilOnline();
    const storage = await bob.page.evaluate(
      () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
    );
    expect(storage).not.toContain(JSON.stringify(bobKey.encryptionPrivateKey));
    expect(storage).not.toContain(JSON.stringify(bobKey.dilithiumPrivateKey));
  });
  // The chat screens' rule: no visible text under 12 px (docs/decisions.md, issue 33 item 6).
  it('shows no direct-message text under 12 px, in two themes', async () => {
    mkdirSync(SHOTS, { recursive: true });
    const bob = await newActor(suite.browser, 'bob');
    suite.actors.push(bob);
    const bobDms = await logInAndOpenDirectMessages(bob, suite.server.baseUrl, bobKey);
    const bobSecureId = secureIdForKey(bobKey.keyId);
    const aliceSecureId = secureIdForKey(aliceKey.keyId);
    let first = true;
    for (const theme of ['classic', 'cia']) {
      const alice = await newActor(suite.browser, `alice-${theme}`, {
        storage: { 'secure-channel-theme': theme },
      });
      suite.actors.push(alice);
      const dms = await logInAndOpenDirectMessages(alice, suite.server.baseUrl, aliceKey);
      expect(await alice.page.evaluate(() => document.body.className)).toContain(`theme-${theme}`);
      if (first) {
        // A thread with a message from each side: list row, header, both message rows.
        await dms.newConversationButton().click();
        await dms.recipientInput().fill(bobSecureId);
        await alice.page.getByTestId('dm-recipient-found').waitFor();
        await dms.newMessageInput().fill(FIRST_MESSAGE);
        await dms.sendMessageButton().click();
        await dms.threadView().waitFor();
        await bobDms.threadRow(aliceSecureId).click();
        await bobDms.reply(REPLY);
        first = false;
      } else {
        await dms.threadRow(bobSecureId).click();
      }
      await dms.message(REPLY).waitFor();
      await dms.openSafetyNumber();
      await alice.page.screenshot({ path: path.join(SHOTS, `dm-${theme}.png`), fullPage: true });
      expect(await smallTexts(alice.page, 12), theme).toEqual([]);
      // The list: thread row with its mode badge, the secure id badge, the legend.
      await dms.backButton().click();
      await dms.threadRow(bobSecureId).waitFor();
      await alice.page.screenshot({
        path: path.join(SHOTS, `dm-list-${theme}.png`),
        fullPage: true,
      });
      expect(await smallTexts(alice.page, 12), `${theme} list`).toEqual([]);
    }
  }, 180_000);
});
