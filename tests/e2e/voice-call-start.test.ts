/**
 * The start of an encrypted call (docs/crypto-room.md §15, "Call start"): when bob joins alice's
 * call, both make or change their frame keys and the media starts flowing while those keys are
 * still on their way through the room's key channel. No frame may fail to open on either side:
 * frames that arrive before their key are held by the receiver and opened when it comes, and a
 * sender never seals under a key it has not handed to that peer.
 *
 * Counted in frames, not time: both sides open their first 150 frames (3 s of 20 ms opus frames),
 * and by then neither has dropped one for want of a key or for a failed tag.
 */
import { describe, expect, it } from 'vitest';
import { ChatPageObject } from './pages/chat-page.js';
import { SecurityStatusObject } from './pages/security-status.js';
import { browserSuite, newActor, type Actor } from './support/browser.js';

/** The call window's frame counters (from the frame-encryption worker, refreshed every 2 s). */
async function counters(actor: Actor) {
  const window = actor.page.getByTestId('voice-call-window');
  const read = async (name: string) => Number(await window.getAttribute(`data-frames-${name}`));
  return {
    sealed: await read('sealed'),
    received: await read('received'),
    opened: await read('opened'),
    noKey: await read('no-key'),
    failed: await read('failed'),
  };
}

describe('the first frames of an encrypted call', () => {
  const suite = browserSuite(
    {},
    {
      media: true,
      args: ['--allow-loopback-in-peer-connection', '--autoplay-policy=no-user-gesture-required'],
    },
  );

  async function visitor(name: string): Promise<Actor> {
    const actor = await newActor(suite.browser, name, {
      storage: { securechannel_access_mode: 'public', 'chat-username': name },
    });
    suite.actors.push(actor);
    await actor.page.goto(`${suite.server.baseUrl}/`);
    await new ChatPageObject(actor.page).waitUntilJoined();
    await new SecurityStatusObject(actor.page).waitUntilEncrypting();
    return actor;
  }

  it('opens every frame from the first one on, on both sides', async () => {
    const alice = await visitor('Agent5101');
    const bob = await visitor('Ghost5202');
    await new SecurityStatusObject(alice.page).waitForSenderKeysOf('Ghost5202');
    await new SecurityStatusObject(bob.page).waitForSenderKeysOf('Agent5101');

    await alice.page.getByTestId('voice-call-button').click();
    await alice.page.getByTestId('voice-call-window').waitFor();
    await bob.page.getByTestId('voice-call-button').click();

    for (const actor of [alice, bob]) {
      await actor.page.waitForFunction(
        () =>
          Number(
            document
              .querySelector('[data-testid="voice-call-window"]')
              ?.getAttribute('data-frames-opened') ?? 0,
          ) >= 150,
        undefined,
        { timeout: 60_000, polling: 250 },
      );
    }
    const seen = { alice: await counters(alice), bob: await counters(bob) };
    for (const side of [seen.alice, seen.bob]) {
      expect(side.sealed, JSON.stringify(seen)).toBeGreaterThan(0);
      expect(side.opened, JSON.stringify(seen)).toBeGreaterThanOrEqual(150);
      expect({ noKey: side.noKey, failed: side.failed }, JSON.stringify(seen)).toEqual({
        noKey: 0,
        failed: 0,
      });
    }
  }, 120_000);
});
