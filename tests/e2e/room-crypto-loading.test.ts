/**
 * The chat room paints before its end-to-end engine has loaded (issue 22, target 5): the engine's
 * chunk (room-engine) is held back here, as a slow network would. Meanwhile the status bar says
 * LOADING, a message typed is held as pending and nothing leaves the browser; once the chunk
 * arrives the message leaves encrypted. A chunk that never loads leaves the room without
 * encryption: the status bar says so and a message is not sent at all, never in clear.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ChatPageObject } from './pages/chat-page.js';
import { browserSuite, newActor, type Actor } from './support/browser.js';

const PUBLIC = { securechannel_access_mode: 'public' };
const ENGINE_CHUNK = '**/assets/room-engine-*.js';

interface SentMessage {
  content: string;
  encryptionType: string;
}

/** Every `send_message` this page's socket sends. */
function recordSentMessages(page: Page): SentMessage[] {
  const sent: SentMessage[] = [];
  page.on('websocket', (socket) => {
    socket.on('framesent', ({ payload }) => {
      if (typeof payload !== 'string') return;
      const frame = JSON.parse(payload) as { type?: string } & SentMessage;
      if (frame.type === 'send_message') sent.push(frame);
    });
  });
  return sent;
}

describe('chat room while its encryption code loads', () => {
  const suite = browserSuite();

  async function actor(name: string): Promise<Actor> {
    const created = await newActor(suite.browser, name, { storage: PUBLIC });
    suite.actors.push(created);
    return created;
  }

  it('holds a message until the engine has loaded, then sends it encrypted', async () => {
    const alice = await actor('alice');
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await alice.page.route(ENGINE_CHUNK, async (route) => {
      await held;
      await route.continue();
    });
    const sent = recordSentMessages(alice.page);
    await alice.page.goto(`${suite.server.baseUrl}/`);
    const chat = new ChatPageObject(alice.page);
    await chat.waitUntilJoined();
    const state = alice.page.getByTestId('e2e-state');
    await state.filter({ hasText: 'LOADING...' }).waitFor();
    await alice.page.getByTestId('key-agreement-notice').waitFor();

    const text = `held ${Date.now().toString(36)}`;
    await chat.send(text);
    await alice.page.getByTestId('pending-message').filter({ hasText: text }).waitFor();
    expect(sent).toEqual([]);

    release();
    await state.filter({ hasText: 'ACTIVE' }).waitFor();
    await chat.message(text).waitFor();
    await alice.page.getByTestId('pending-message').waitFor({ state: 'detached' });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.content).toBe('');
    expect(sent[0]!.encryptionType).not.toBe('PLAINTEXT');
  });

  it('sends nothing, in clear or otherwise, when the engine cannot be loaded', async () => {
    const alice = await actor('alice');
    await alice.page.route(ENGINE_CHUNK, (route) => route.abort());
    const sent = recordSentMessages(alice.page);
    await alice.page.goto(`${suite.server.baseUrl}/`);
    const chat = new ChatPageObject(alice.page);
    await chat.waitUntilJoined();
    await alice.page.getByTestId('e2e-state').filter({ hasText: 'UNAVAILABLE' }).waitFor();

    await chat.send(`never sent ${Date.now().toString(36)}`);
    await alice.page.getByText('ENCRYPTION FAILED').first().waitFor();
    expect(sent).toEqual([]);
    expect(alice.errors.join('\n')).not.toMatch(/never sent/);
  });
});
