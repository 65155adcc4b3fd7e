/**
 * "Remember this key on this device" (docs/crypto.md "Remembered key"; issue 33 item 1).
 *
 * Scenario 1: alice ticks "Remember this key on this device" at key login; bob, another key
 * holder, is in the public channel. alice reloads: with no prompt she is still VERIFIED at bob's
 * and her direct messages open without UNLOCK. Forget Key erases the remembered copy (the
 * IndexedDB store is empty) and the session: the next visit asks for the key file.
 *
 * Scenario 2: carol logs in without ticking it and reloads: the chat shows exactly one "KEY FILE
 * NOT LOADED" prompt, her status line does not call the session anonymous, and bob sees her
 * UNVERIFIED; she loads her file with LOAD KEY FILE and is VERIFIED at bob's again.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { serializeKeyFile, type KeyFile } from '../../shared/crypto/key-file-schema.js';
import { makeRegisteredKey } from '../support/keys.js';
import { ChatPageObject } from './pages/chat-page.js';
import { DirectMessagesPageObject } from './pages/direct-messages.js';
import { LandingPageObject } from './pages/landing-page.js';
import { SecurityStatusObject, signatureOf, waitForKeysFrom } from './pages/security-status.js';
import { type Actor, browserSuite, newActor } from './support/browser.js';

const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? null;

async function shoot(page: Page, name: string) {
  if (!SCREENSHOT_DIR) return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

let counter = 0;
const unique = (text: string) => `${text} ${Date.now()}-${(counter += 1)}`;

/** The records of the remembered-key IndexedDB store, as text (CryptoKeys show as `{}`). */
function rememberedRecords(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const request = indexedDB.open('securechannel-remembered-key', 1);
        request.onupgradeneeded = () => request.result.createObjectStore('records');
        request.onerror = () => reject(new Error('indexedDB refused'));
        request.onsuccess = () => {
          const db = request.result;
          const all = db.transaction('records').objectStore('records').getAll();
          all.onsuccess = () => {
            db.close();
            resolve(
              (all.result as Record<string, unknown>[]).map((record) =>
                JSON.stringify(record, (_key, value: unknown) =>
                  value instanceof Uint8Array ? Array.from(value) : value,
                ),
              ),
            );
          };
        };
      }),
  );
}

describe('a key remembered on this device', () => {
  const suite = browserSuite();
  let aliceKey: KeyFile;
  let bobKey: KeyFile;
  let carolKey: KeyFile;

  beforeAll(async () => {
    const stamp = Date.now() % 100000;
    const make = (name: string) =>
      makeRegisteredKey(suite.server.baseUrl, { username: `${name}${stamp}` });
    aliceKey = await make('alice');
    bobKey = await make('bob');
    carolKey = await make('carol');
  });

  async function logIn(
    name: string,
    keyFile: KeyFile,
    remember: boolean,
    theme?: string,
  ): Promise<Actor> {
    const actor = await newActor(suite.browser, name, {
      storage: theme ? { 'secure-channel-theme': theme } : undefined,
    });
    suite.actors.push(actor);
    const landing = new LandingPageObject(actor.page, suite.server.baseUrl);
    await landing.open();
    await landing.chooseKeyFile(`${name}.sck`, serializeKeyFile(keyFile));
    if (remember) {
      await actor.page.getByTestId('remember-key-checkbox').check();
      await shoot(actor.page, `remember-key-checkbox-${theme ?? 'default'}`);
    } else {
      expect(await actor.page.getByTestId('remember-key-checkbox').isChecked()).toBe(false);
      if (theme) await shoot(actor.page, `remember-key-unticked-${theme}`);
    }
    await landing.authenticateButton().click();
    const chat = new ChatPageObject(actor.page);
    await chat.waitUntilJoined();
    await new SecurityStatusObject(actor.page).waitUntilEncrypting();
    return actor;
  }

  /** `writer` sends a line; resolves to its signature state at `reader`'s. */
  async function stateAt(writer: Page, reader: Page): Promise<string | null> {
    const text = unique('signed?');
    await waitForKeysFrom(reader, new ChatPageObject(writer));
    await new ChatPageObject(writer).send(text);
    const line = new ChatPageObject(reader).message(text);
    await line.getByTestId('message-text').filter({ hasText: text }).waitFor();
    return signatureOf(line).getAttribute('data-state');
  }

  it('keeps a remembering key holder verified and her direct messages open across a reload; Forget Key erases it', async () => {
    const alice = await logIn('alice', aliceKey, true, 'matrix');
    const bob = await logIn('bob', bobKey, false);
    expect(await stateAt(alice.page, bob.page)).toBe('verified');

    // What is stored holds no private key bytes.
    const records = await rememberedRecords(alice.page);
    expect(records).toHaveLength(1);
    for (const secret of [aliceKey.dilithiumPrivateKey!, aliceKey.ecdsaPrivateKey!]) {
      expect(records[0]).not.toContain(secret.slice(0, 24).join(','));
    }

    await alice.page.reload();
    const aliceChat = new ChatPageObject(alice.page);
    await aliceChat.waitUntilJoined();
    await new SecurityStatusObject(alice.page).waitUntilEncrypting();
    expect(await alice.page.getByTestId('key-file-prompt').count()).toBe(0);
    expect(await stateAt(alice.page, bob.page)).toBe('verified');

    const dm = new DirectMessagesPageObject(alice.page);
    await dm.openFromChat();
    await dm.mySecureId().waitFor();
    expect(await dm.unlockPanel().count()).toBe(0);
    // A new tab (a pasted link) restores it too.
    const tab = await alice.context.newPage();
    await tab.goto(`${suite.server.baseUrl}/direct-messages`);
    await new DirectMessagesPageObject(tab).list().waitFor();
    expect(await new DirectMessagesPageObject(tab).unlockPanel().count()).toBe(0);
    await tab.close();

    await alice.page.goto(`${suite.server.baseUrl}/`);
    await aliceChat.waitUntilLoaded();
    await alice.page.getByTestId('more-options').click();
    await alice.page.getByTestId('menu-forget-key').click();
    await alice.page.waitForURL(/\/landing$/);
    expect(await rememberedRecords(alice.page)).toEqual([]);
    // Nothing is left to restore: a new visit lands signed out, the key card empty.
    await alice.page.goto(`${suite.server.baseUrl}/`);
    await alice.page.waitForURL(/\/landing$/);
    await alice.page.getByTestId('landing-key-file-input').waitFor();
    expect(
      await alice.page.evaluate(() => localStorage.getItem('securechannel_session')),
    ).toBeNull();
  }, 120_000);

  it('shows one LOAD KEY FILE prompt after a reload without remembering, and verifies again once loaded', async () => {
    const bob = await logIn('bob', bobKey, false);
    const carol = await logIn('carol', carolKey, false, 'cyberpunk');
    expect(await rememberedRecords(carol.page)).toEqual([]);

    await carol.page.reload();
    const carolChat = new ChatPageObject(carol.page);
    await carolChat.waitUntilJoined();
    const prompt = carol.page.getByTestId('key-file-prompt');
    await prompt.waitFor();
    expect(await prompt.count()).toBe(1);
    expect(await prompt.textContent()).toContain('LOAD KEY FILE');
    const carolSecurity = new SecurityStatusObject(carol.page);
    await carolSecurity.waitUntilEncrypting();
    expect(await carol.page.getByTestId('security-authentication').textContent()).toBe(
      'AUTHENTICATED',
    );
    expect(await carol.page.getByText(/anonymous session/i).count()).toBe(0);
    await shoot(carol.page, 'key-file-prompt-cyberpunk');
    expect(await stateAt(carol.page, bob.page)).toBe('unverified');

    await carol.page.getByTestId('key-file-prompt-input').setInputFiles({
      name: 'carol.sck',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(serializeKeyFile(carolKey)),
    });
    await prompt.waitFor({ state: 'detached' });
    // bob checks carol's newly signed bundle against the key registry.
    const bobSecurity = new SecurityStatusObject(bob.page);
    await bobSecurity.openDetails();
    await bob.page
      .locator('[data-testid="member-trust"][data-trust="verified"]')
      .filter({ hasText: carolKey.username })
      .waitFor();
    await bobSecurity.closeDetails();
    expect(await stateAt(carol.page, bob.page)).toBe('verified');
  });

  it('shows the prompt in a second theme', async () => {
    // Only for the screenshot record of the prompt in the matrix theme; asserts the prompt is one.
    const dave = await logIn(
      'dave',
      await makeRegisteredKey(suite.server.baseUrl, { username: `dave${Date.now() % 100000}` }),
      false,
      'matrix',
    );
    await dave.page.reload();
    await new ChatPageObject(dave.page).waitUntilJoined();
    await dave.page.getByTestId('key-file-prompt').waitFor();
    expect(await dave.page.getByTestId('key-file-prompt').count()).toBe(1);
    await shoot(dave.page, 'key-file-prompt-matrix');
  });
});
