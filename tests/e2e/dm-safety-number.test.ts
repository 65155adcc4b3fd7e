/**
 * The DM safety number in two browsers (issue 14, item 2).
 *
 * Scenario: alice and bob log in with their key files and open a conversation. Each opens
 * SAFETY NUMBER in the thread: both see the same sixty digits in twelve groups. alice marks bob
 * verified; her badge reads VERIFIED and stays so after a reload (the mark is kept locally). Then
 * the server starts handing out another key for bob (a hostile relay in front of
 * GET /api/dm/keys/{bob}, mallory's keys signed under bob's keyId): alice's thread shows KEY
 * CHANGED with the pinned and presented fingerprints, bob's messages are withheld, and the reply
 * box is disabled.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { numbersToBytes } from '../../shared/crypto/bytes.js';
import { signEncryptionKey } from '../../shared/crypto/dm/encryption-keys.js';
import { createKeyFile } from '../../shared/crypto/key-file.js';
import { serializeKeyFile, type KeyFile } from '../../shared/crypto/key-file-schema.js';
import { secureIdForKey } from '../../shared/ids.js';
import { makeRegisteredKey } from '../support/keys.js';
import { type Actor, browserSuite, newActor, seriousAxeViolations } from './support/browser.js';
import { LandingPageObject } from './pages/landing-page.js';
import { ChatPageObject } from './pages/chat-page.js';
import { DirectMessagesPageObject } from './pages/direct-messages.js';

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

describe('the DM safety number in the browser', () => {
  const suite = browserSuite();
  let aliceKey: KeyFile;
  let bobKey: KeyFile;
  let malloryKey: KeyFile;

  beforeAll(async () => {
    [aliceKey, bobKey] = await Promise.all([
      makeRegisteredKey(suite.server.baseUrl, { username: 'alice' }),
      makeRegisteredKey(suite.server.baseUrl, { username: 'bob' }),
    ]);
    malloryKey = await createKeyFile({ username: 'mallory' });
  });

  it('shows alice and bob the same safety number, keeps VERIFIED, and warns of a changed key', async () => {
    const alice = await newActor(suite.browser, 'alice');
    const bob = await newActor(suite.browser, 'bob');
    suite.actors.push(alice, bob);
    const bobDms = await logInAndOpenDirectMessages(bob, suite.server.baseUrl, bobKey);
    const aliceDms = await logInAndOpenDirectMessages(alice, suite.server.baseUrl, aliceKey);

    // alice opens the conversation; bob opens it from his list and answers.
    await aliceDms.newConversationButton().click();
    await aliceDms.recipientInput().pressSequentially(secureIdForKey(bobKey.keyId));
    await alice.page.getByTestId('dm-recipient-found').waitFor();
    await aliceDms.newMessageInput().fill('compare numbers?');
    await aliceDms.sendMessageButton().click();
    await aliceDms.message('compare numbers?').waitFor();
    const aliceSecureId = secureIdForKey(aliceKey.keyId);
    await bobDms.threadRow(aliceSecureId).waitFor();
    await bobDms.threadRow(aliceSecureId).click();
    await bobDms.message('compare numbers?').waitFor();
    await bobDms.reply('reading mine now');
    await aliceDms.message('reading mine now').waitFor();

    // Both see the same sixty digits; neither is verified yet.
    expect(await aliceDms.identityState().getAttribute('data-trust')).toMatch(
      /^(first-use|pinned)$/,
    );
    const aliceNumber = await aliceDms.openSafetyNumber();
    const bobNumber = await bobDms.openSafetyNumber();
    expect(aliceNumber).toMatch(/^\d{60}$/);
    expect(bobNumber).toBe(aliceNumber);
    const groups = await alice.page.getByTestId('dm-safety-number').locator('li').allTextContents();
    expect(groups).toHaveLength(12);
    expect(groups.join('')).toBe(aliceNumber);
    expect(await seriousAxeViolations(alice.page)).toEqual([]);

    // alice marks bob verified; the mark survives a reload.
    await aliceDms.markVerifiedButton().click();
    await alice.page.locator('[data-testid="dm-identity-state"][data-trust="verified"]').waitFor();
    await alice.page.reload();
    await aliceDms.chooseUnlockFile('alice.sck', serializeKeyFile(aliceKey));
    await aliceDms.threadRow(secureIdForKey(bobKey.keyId)).click();
    await alice.page.locator('[data-testid="dm-identity-state"][data-trust="verified"]').waitFor();
    await aliceDms.message('reading mine now').waitFor();

    // The server now presents mallory's keys as bob's.
    await alice.page.route(`**/api/dm/keys/${bobKey.keyId}`, async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as Record<string, unknown>;
      const signature = signEncryptionKey(
        bobKey.keyId,
        malloryKey.encryptionPublicKey!,
        numbersToBytes(malloryKey.dilithiumPrivateKey!),
      );
      await route.fulfill({
        response,
        json: {
          ...body,
          fingerprint: malloryKey.fingerprint,
          dilithiumPublicKey: malloryKey.dilithiumPublicKey,
          ecdsaPublicKey: malloryKey.ecdsaPublicKey,
          encryptionPublicKey: malloryKey.encryptionPublicKey,
          encryptionKeySignature: Array.from(signature),
        },
      });
    });
    await aliceDms.backButton().click();
    await aliceDms.threadRow(secureIdForKey(bobKey.keyId)).click();
    await aliceDms.keyChangedWarning().waitFor();
    expect(await aliceDms.keyChangedWarning().textContent()).toContain('KEY CHANGED');
    expect(await aliceDms.keyChangedWarning().textContent()).toContain(bobKey.fingerprint);
    expect(await aliceDms.identityState().getAttribute('data-trust')).toBe('changed');
    expect(await aliceDms.message('reading mine now').count()).toBe(0);
    expect(await aliceDms.replyInput().isDisabled()).toBe(true);
    expect(await seriousAxeViolations(alice.page)).toEqual([]);
  }, 240_000);
});
