/**
 * Quantum Pong in two browsers (spec 001 §2 "Pong screen", §4, §5, §7; spec 000 §5 "/pong").
 *
 * Scenario: alice and bob log in with their key files and type /pong in the chat; each lands on
 * the game (never on the visitor refusal). alice is the LEFT PLAYER, bob the RIGHT PLAYER, and
 * both see the two names in the slots and 'Ready for multiplayer (2/2 players)'. alice starts the
 * game; both read 'Multiplayer game in progress'. alice holds the down key and bob sees her
 * paddle go down; bob holds W and alice sees his go up. Neither defends, so a point is scored,
 * and both screens show the same changed score.
 */
import { describe, expect, it } from 'vitest';
import { serializeKeyFile, type KeyFile } from '../../shared/crypto/key-file-schema.js';
import { makeRegisteredKey } from '../support/keys.js';
import { type Actor, browserSuite, newActor } from './support/browser.js';
import { LandingPageObject } from './pages/landing-page.js';
import { ChatPageObject } from './pages/chat-page.js';
import { PongPageObject } from './pages/pong.js';

async function openPong(actor: Actor, baseUrl: string, key: KeyFile): Promise<PongPageObject> {
  const landing = new LandingPageObject(actor.page, baseUrl);
  await landing.open();
  await landing.chooseKeyFile(`${key.username}.sck`, serializeKeyFile(key));
  await landing.authenticateButton().click();
  const chat = new ChatPageObject(actor.page);
  await chat.waitUntilJoined();
  await chat.send('/pong');
  const pong = new PongPageObject(actor.page);
  await pong.waitUntilConnected();
  return pong;
}

describe('Pong in the browser', () => {
  // Three simulation steps per tick: a point comes three times sooner; motion is still smooth.
  const suite = browserSuite({ env: { PONG_TIME_SCALE: '3' } });

  it('shows two key holders each other’s paddle and the same score', async () => {
    const aliceKey = await makeRegisteredKey(suite.server.baseUrl, { username: 'alice' });
    const bobKey = await makeRegisteredKey(suite.server.baseUrl, { username: 'bob' });
    const alice = await newActor(suite.browser, 'alice');
    const bob = await newActor(suite.browser, 'bob');
    suite.actors.push(alice, bob);

    const alicePong = await openPong(alice, suite.server.baseUrl, aliceKey);
    await alicePong.side().filter({ hasText: 'LEFT PLAYER' }).waitFor();
    await alicePong.status().filter({ hasText: 'Practice mode ready (1/2 players)' }).waitFor();
    await alicePong.slot('right').filter({ hasText: 'Waiting...' }).waitFor();
    await alice.page.getByTestId('pong-waiting').waitFor();
    expect(await alice.page.getByTestId('pong-refusal').count()).toBe(0);

    const bobPong = await openPong(bob, suite.server.baseUrl, bobKey);
    await bobPong.side().filter({ hasText: 'RIGHT PLAYER' }).waitFor();
    for (const pong of [alicePong, bobPong]) {
      await pong.slot('left').filter({ hasText: 'alice' }).waitFor();
      await pong.slot('right').filter({ hasText: 'bob' }).waitFor();
      await pong.status().filter({ hasText: 'Ready for multiplayer (2/2 players)' }).waitFor();
    }

    await alicePong.startButton().filter({ hasText: 'Start Game' }).click();
    for (const pong of [alicePong, bobPong]) {
      await pong.status().filter({ hasText: 'Multiplayer game in progress' }).waitFor();
    }
    expect(await bobPong.startButton().isDisabled()).toBe(true);

    // alice moves down; bob sees it. bob moves up; alice sees it.
    await alice.page.keyboard.down('ArrowDown');
    await bobPong.waitForPaddle('left', 300, 320);
    await alice.page.keyboard.up('ArrowDown');
    await bob.page.keyboard.down('w');
    await alicePong.waitForPaddle('right', 0, 20);
    await bob.page.keyboard.up('w');

    // With both paddles out of the way the ball gets through, soon enough.
    await alice.page.waitForFunction(
      () =>
        ['pong-score-left', 'pong-score-right'].some(
          (id) => document.querySelector(`[data-testid="${id}"]`)?.textContent !== '0',
        ),
      undefined,
      { timeout: 30_000 },
    );
    const left = await alicePong.score('left').textContent();
    const right = await alicePong.score('right').textContent();
    await bobPong
      .score('left')
      .filter({ hasText: left ?? '' })
      .waitFor();
    await bobPong
      .score('right')
      .filter({ hasText: right ?? '' })
      .waitFor();
    expect(Number(left) + Number(right)).toBeGreaterThan(0);
    expect(alice.errors).toEqual([]);
    expect(bob.errors).toEqual([]);
  }, 240_000);
});
