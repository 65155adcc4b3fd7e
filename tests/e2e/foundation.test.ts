/**
 * Public entry, routing and gating, callsigns, themes and accessibility in headless Chromium.
 *
 * Scenario: a visitor opens the landing page, enters the public channel, keeps their callsign
 * across a reload, regenerates it, switches theme, and meets the destroyed-channel and 404 pages.
 */
import { describe, expect, it } from 'vitest';
import { browserSuite, newActor, seriousAxeViolations } from './support/browser.js';
import { LandingPageObject } from './pages/landing-page.js';
import { CHAT_URL, ChatPageObject } from './pages/chat-page.js';
import { smallTexts } from './support/legibility.js';

const CALLSIGN = /^(Agent|User|Op|Node|Unit|Ghost|Shadow|Cipher)([1-9][0-9]{0,3})$/;
const PUBLIC = { securechannel_access_mode: 'public' };

describe('foundation in the browser', () => {
  const suite = browserSuite();

  async function actor(name: string, options: Parameters<typeof newActor>[2] = {}) {
    const created = await newActor(suite.browser, name, options);
    suite.actors.push(created);
    return created;
  }

  it('takes a visitor from the landing page into the public channel', async () => {
    const alice = await actor('alice');
    const landing = new LandingPageObject(alice.page, suite.server.baseUrl);
    await landing.open();
    expect(await smallTexts(alice.page, 12), 'landing page').toEqual([]);
    await landing.enterPublicChannel();
    await alice.page.waitForURL(CHAT_URL);
    const chat = new ChatPageObject(alice.page);
    await chat.waitUntilLoaded();
    const { secureId } = (await (
      await fetch(`${suite.server.baseUrl}/api/default-room`)
    ).json()) as {
      secureId: string;
    };
    expect(chat.secureId()).toBe(secureId);
    expect(await chat.roomName().textContent()).toBe('PUBLIC CHANNEL');
  });

  it('gives a callsign of the spec pattern that survives a reload and can be regenerated', async () => {
    const bob = await actor('bob', { storage: PUBLIC });
    await bob.page.goto(`${suite.server.baseUrl}/`);
    const chat = new ChatPageObject(bob.page);
    await chat.waitUntilLoaded();
    const first = (await chat.callsign().textContent()) ?? '';
    expect(first).toMatch(CALLSIGN);
    expect(await bob.page.evaluate(() => localStorage.getItem('chat-username'))).toBe(first);
    await bob.page.reload();
    await chat.waitUntilLoaded();
    expect(await chat.callsign().textContent()).toBe(first);

    await chat.regenerateCallsign();
    await bob.page.getByText('IDENTITY_REGENERATED', { exact: true }).waitFor();
    // The page reloads 1.5 s later with the new callsign.
    await bob.page.waitForEvent('load');
    await chat.waitUntilLoaded();
    const second = (await chat.callsign().textContent()) ?? '';
    expect(second).toMatch(CALLSIGN);
    expect(second).not.toBe(first);
  });

  it('keeps the chosen theme across a reload and applies its colours', async () => {
    const carol = await actor('carol', { storage: PUBLIC });
    await carol.page.goto(`${suite.server.baseUrl}/themes`);
    await carol.page.getByRole('heading', { name: 'SecureChannel Themes' }).waitFor();
    await carol.page.getByTestId('theme-card-matrix').click();
    const read = () =>
      carol.page.evaluate(() => ({
        stored: localStorage.getItem('secure-channel-theme'),
        hasClass: document.body.classList.contains('theme-matrix'),
        background: getComputedStyle(document.body).backgroundColor,
        primary: getComputedStyle(document.documentElement).getPropertyValue('--sc-primary').trim(),
      }));
    const before = await read();
    expect(before.stored).toBe('matrix');
    expect(before.hasClass).toBe(true);
    await carol.page.reload();
    await carol.page.getByRole('heading', { name: 'SecureChannel Themes' }).waitFor();
    const after = await read();
    expect(after).toEqual(before);

    await carol.page.getByTestId('theme-card-cia').click();
    const cia = await read();
    expect(cia.stored).toBe('cia');
    expect(cia.background).not.toBe(before.background);
    expect(cia.primary).not.toBe(before.primary);
  });

  it('falls back to the classic theme when the stored theme is unknown', async () => {
    const dave = await actor('dave', {
      storage: { ...PUBLIC, 'secure-channel-theme': 'vaporwave' },
    });
    await dave.page.goto(`${suite.server.baseUrl}/themes`);
    await dave.page.getByRole('heading', { name: 'SecureChannel Themes' }).waitFor();
    expect(await dave.page.evaluate(() => document.body.classList.contains('theme-classic'))).toBe(
      true,
    );
  });

  it('sends an unknown room id to /channel-destroyed', async () => {
    const erin = await actor('erin', { storage: PUBLIC });
    await erin.page.goto(`${suite.server.baseUrl}/chat/${'0'.repeat(64)}`);
    await erin.page.waitForURL(/\/channel-destroyed$/);
    await erin.page.getByText('CHANNEL NOT FOUND').waitFor();
    await erin.page.getByRole('button', { name: /RETURN_TO_PUBLIC_CHANNEL/ }).click();
    await erin.page.waitForURL(CHAT_URL);
  });

  it('shows the 404 text for an unknown path', async () => {
    const frank = await actor('frank', { storage: PUBLIC });
    await frank.page.goto(`${suite.server.baseUrl}/no/such/page`);
    await frank.page.getByText('404 Page Not Found').waitFor();
    await frank.page.getByText('Did you forget to add the page to the router?').waitFor();
  });

  it('lets a visitor without an access mode reach only /landing and /get-key', async () => {
    const grace = await actor('grace');
    for (const path of [
      '/',
      `/chat/${'a'.repeat(64)}`,
      '/themes',
      '/pong',
      '/direct-messages',
      '/channel-destroyed',
      '/nowhere',
    ]) {
      await grace.page.goto(`${suite.server.baseUrl}${path}`);
      await grace.page.waitForURL(/\/landing$/);
    }
    await grace.page.goto(`${suite.server.baseUrl}/get-key`);
    await grace.page.getByRole('heading', { level: 1 }).waitFor();
    expect(new URL(grace.page.url()).pathname).toBe('/get-key');
  });

  it('has no serious or critical accessibility violations on the landing page and the chat screen', async () => {
    const heidi = await actor('heidi');
    await new LandingPageObject(heidi.page, suite.server.baseUrl).open();
    expect(await seriousAxeViolations(heidi.page)).toEqual([]);
    await heidi.page.evaluate(() => localStorage.setItem('securechannel_access_mode', 'public'));
    await heidi.page.goto(`${suite.server.baseUrl}/`);
    await new ChatPageObject(heidi.page).waitUntilLoaded();
    expect(await seriousAxeViolations(heidi.page)).toEqual([]);
  });

  it('reaches ENTER PUBLIC CHANNEL by keyboard alone', async () => {
    const ivan = await actor('ivan');
    await new LandingPageObject(ivan.page, suite.server.baseUrl).open();
    // The focused element itself, not the page: with nothing focused the body is the active
    // element, and its text contains the button's.
    const focusedControl = () =>
      ivan.page.evaluate(() => {
        const active = document.activeElement;
        return active && active !== document.body ? (active.textContent ?? '') : '';
      });
    let focused = '';
    for (let i = 0; i < 40 && !/ENTER PUBLIC CHANNEL/.test(focused); i += 1) {
      await ivan.page.keyboard.press('Tab');
      focused = await focusedControl();
    }
    expect(focused).toMatch(/ENTER PUBLIC CHANNEL/);
    await ivan.page.keyboard.press('Enter');
    await ivan.page.waitForURL(CHAT_URL);
  });
});
