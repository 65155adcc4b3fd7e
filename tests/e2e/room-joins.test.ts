/**
 * Joins told together (docs/protocol.md "Joining"): when several members join a room within one
 * window, the room hears of them in one `users_joined`, and a browser shows each arrival as it
 * would a single `user_joined`: a "joined the channel" line and a row in the operatives list.
 *
 * Scenario: alice is in the public channel, her key announced; the server holds joins for up to a
 * minute here instead of 50 ms, so that a window ends only at the room's next publish, whatever the
 * machine's speed.
 * A visitor's socket joins, then bob's browser: bob's key announcement, the room's next frame,
 * publishes the two joins first, in one `users_joined` that carries bob's own entry. Once bob and
 * alice hold each other's keys (nothing more for the room to publish), two more sockets join and
 * a list request ends the window with both in one frame. alice's browser shows every arrival; bob's shows the others' and
 * himself once in the list, without a line announcing him to himself. With SCREENSHOT_DIR set,
 * both pages are saved there (alice's in the classic theme, bob's in matrix).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { TestSocket } from '../support/ws-client.js';
import { browserSuite, newActor } from './support/browser.js';
import { ChatPageObject } from './pages/chat-page.js';
import { waitForKeysFrom } from './pages/security-status.js';

const PUBLIC = { securechannel_access_mode: 'public' };
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? null;

async function shoot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOT_DIR) return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}
/** Longer than any step of the test takes: each window is ended by the room's next publish. */
const JOIN_WINDOW_MS = 60_000;

type Frame = { type: string } & Record<string, unknown>;

/** Every frame the page's sockets receive, parsed, from now on. */
function receivedFrames(page: Page): Frame[] {
  const frames: Frame[] = [];
  page.on('websocket', (socket) => {
    socket.on('framereceived', ({ payload }) => {
      if (typeof payload === 'string') frames.push(JSON.parse(payload) as Frame);
    });
  });
  return frames;
}

/** The operatives list, opened. */
async function operatives(page: Page): Promise<void> {
  const panel = page.getByTestId('operatives-panel');
  if ((await panel.count()) === 0) await page.getByTestId('toggle-operatives').click();
  await panel.waitFor();
}

const operativeRow = (page: Page, username: string) =>
  page.getByTestId('operative-row').filter({ hasText: username });

describe('joins told together in the browser', () => {
  const suite = browserSuite({ deps: { joinWindowMs: JOIN_WINDOW_MS } });

  it("shows every arrival of a window's users_joined, and a newcomer not to itself", async () => {
    const alice = await newActor(suite.browser, 'alice', { storage: PUBLIC });
    suite.actors.push(alice);
    const aliceFrames = receivedFrames(alice.page);
    await alice.page.goto(`${suite.server.baseUrl}/`);
    const aliceChat = new ChatPageObject(alice.page);
    await aliceChat.waitUntilJoined();
    await operatives(alice.page);
    const roomId = aliceChat.secureId();
    const sockets: TestSocket[] = [];
    const joinAs = async (username: string) => {
      const socket = await TestSocket.connect(suite.server.wsUrl());
      sockets.push(socket);
      socket.send({ type: 'join_room', roomId, username });
      await socket.nextOfType('room_joined');
      return socket;
    };
    const told = (frames: Frame[]) =>
      frames.filter((f) => f.type === 'users_joined' || f.type === 'user_joined');
    const names = (frame: Frame) =>
      frame.type === 'user_joined'
        ? [frame.username]
        : (frame.users as { username: string }[]).map((user) => user.username);
    try {
      // alice's own join told before the others arrive (a list request publishes what is held).
      const early = await joinAs('Agent901');
      // So is her key announcement, the room's publish too, which would end a window early: a
      // browser on a busy machine signs it seconds after its join. Agent901 holds it either in
      // the bundles it got on joining or as the announcement relayed since.
      const aliceCallsign = (await aliceChat.callsign().textContent()) ?? '';
      await early.next(
        (frame) =>
          (frame.type === 'key_announce' && frame.username === aliceCallsign) ||
          (frame.type === 'key_bundles' &&
            (frame.bundles as { username: string }[]).some(
              (entry) => entry.username === aliceCallsign,
            )),
        30_000,
      );
      early.send({ type: 'request_user_list' });
      await early.nextOfType('user_list_update');
      await operativeRow(alice.page, 'Agent901').waitFor();
      const heardBefore = told(aliceFrames).length;

      await joinAs('Ghost902');
      const bob = await newActor(suite.browser, 'bob', {
        storage: { ...PUBLIC, 'secure-channel-theme': 'matrix' },
      });
      suite.actors.push(bob);
      const bobFrames = receivedFrames(bob.page);
      await bob.page.goto(`${suite.server.baseUrl}/`);
      const bobChat = new ChatPageObject(bob.page);
      await bobChat.waitUntilJoined();
      expect(bobChat.secureId()).toBe(roomId);
      const bobCallsign = (await bobChat.callsign().textContent()) ?? '';
      await waitForKeysFrom(alice.page, bobChat);
      await waitForKeysFrom(bob.page, aliceChat);

      await joinAs('Unit903');
      await joinAs('Op904');
      // The room's next publish ends the window: a list request publishes what is held first.
      early.send({ type: 'request_user_list' });
      for (const name of ['Ghost902', bobCallsign, 'Unit903', 'Op904']) {
        await aliceChat.systemLine(`${name} joined the channel`).waitFor({ timeout: 15_000 });
        await operativeRow(alice.page, name).waitFor();
      }
      const windows = [
        ['Ghost902', bobCallsign],
        ['Unit903', 'Op904'],
      ];
      const aliceTold = told(aliceFrames).slice(heardBefore);
      expect(aliceTold.map((frame) => frame.type)).toEqual(['users_joined', 'users_joined']);
      expect(aliceTold.map(names)).toEqual(windows);

      // bob heard the same two frames, his own entry in the first, and shows the others only.
      await bobChat.systemLine('Op904 joined the channel').waitFor({ timeout: 15_000 });
      expect(told(bobFrames).map(names)).toEqual(windows);
      for (const name of ['Ghost902', 'Unit903']) {
        expect(await bobChat.systemLine(`${name} joined the channel`).count()).toBe(1);
      }
      expect(await bobChat.systemLine(`${bobCallsign} joined the channel`).count()).toBe(0);
      await operatives(bob.page);
      await expect.poll(() => bob.page.getByTestId('operatives-count').textContent()).toBe('6');
      expect(await alice.page.getByTestId('operatives-count').textContent()).toBe('6');
      expect(await operativeRow(bob.page, bobCallsign).count()).toBe(1);
      await shoot(alice.page, 'joins-told-together-classic');
      await shoot(bob.page, 'joins-told-together-matrix');
      expect(alice.errors).toEqual([]);
      expect(bob.errors).toEqual([]);
    } finally {
      for (const socket of sockets) socket.close();
    }
  });
});
