/**
 * The start of an encrypted call (docs/crypto-room.md §15, "Call start"): when bob joins alice's
 * call, both make or change their frame keys and the media starts flowing while those keys are
 * still on their way through the room's key channel. No frame may fail to open on either side:
 * frames that arrive before their key are held by the receiver and opened when it comes, and a
 * sender never seals under a key it has not handed to that peer.
 *
 * Counted in frames, not time: both sides open their first 150 frames (3 s of 20 ms opus frames),
 * and by then neither has dropped one for want of a key or for a failed tag. In the second test
 * bob's key frames are held back until alice has received his first packets, so his first frames
 * certainly overtake his key: alice holds them and opens them when it comes.
 */
import type { WebSocketRoute } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ChatPageObject } from './pages/chat-page.js';
import { SecurityStatusObject } from './pages/security-status.js';
import { browserSuite, newActor, type Actor } from './support/browser.js';

/** Keeps every peer connection the page makes, for `packetsReceived`. */
function recordPeerConnections() {
  const pcs: RTCPeerConnection[] = [];
  (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs = pcs;
  const Native = window.RTCPeerConnection;
  window.RTCPeerConnection = class extends Native {
    constructor(config?: RTCConfiguration) {
      super(config);
      pcs.push(this);
    }
  };
}

/** Audio packets the page's peer connections have received. */
function packetsReceived(actor: Actor): Promise<number> {
  return actor.page.evaluate(async () => {
    let packets = 0;
    for (const pc of (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs) {
      (await pc.getStats()).forEach((stat: Record<string, unknown>) => {
        if (stat.type === 'inbound-rtp' && stat.kind === 'audio')
          packets += Number(stat.packetsReceived ?? 0);
      });
    }
    return packets;
  });
}

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
    held: await read('held'),
  };
}

/** Waits until every one of `actors` has opened `count` frames (the call window's counter). */
async function untilOpened(actors: readonly Actor[], count: number): Promise<void> {
  for (const actor of actors) {
    await actor.page.waitForFunction(
      (wanted) =>
        Number(
          document
            .querySelector('[data-testid="voice-call-window"]')
            ?.getAttribute('data-frames-opened') ?? 0,
        ) >= wanted,
      count,
      { timeout: 60_000, polling: 250 },
    );
  }
}

describe('the first frames of an encrypted call', () => {
  const suite = browserSuite(
    {},
    {
      media: true,
      args: ['--allow-loopback-in-peer-connection', '--autoplay-policy=no-user-gesture-required'],
    },
  );

  async function visitor(name: string, before?: (actor: Actor) => Promise<void>): Promise<Actor> {
    const actor = await newActor(suite.browser, name, {
      storage: { securechannel_access_mode: 'public', 'chat-username': name },
    });
    suite.actors.push(actor);
    await actor.context.addInitScript(recordPeerConnections);
    if (before) await before(actor);
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

    await untilOpened([alice, bob], 150);
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

  it('holds the frames that overtake their key and opens them when it comes', async () => {
    const alice = await visitor('Agent5303');
    // bob's socket: once set, his sender_key frames (which carry his frame key) wait here.
    let isHolding = false;
    const waiting: string[] = [];
    let toServer: (message: string) => void = () => {
      throw new Error('bob has no socket');
    };
    const bob = await visitor('Ghost5404', async (actor) => {
      await actor.page.routeWebSocket(/\/chat-ws$/, (ws: WebSocketRoute) => {
        const server = ws.connectToServer();
        toServer = (message) => server.send(message);
        ws.onMessage((message) => {
          const text = typeof message === 'string' ? message : message.toString('utf8');
          if (isHolding && text.includes('"sender_key"')) waiting.push(text);
          else server.send(message);
        });
        server.onMessage((message) => ws.send(message));
      });
    });
    await new SecurityStatusObject(alice.page).waitForSenderKeysOf('Ghost5404');
    await new SecurityStatusObject(bob.page).waitForSenderKeysOf('Agent5303');

    await alice.page.getByTestId('voice-call-button').click();
    await alice.page.getByTestId('voice-call-window').waitFor();
    isHolding = true;
    await bob.page.getByTestId('voice-call-button').click();
    // alice receives bob's first packets, sealed under a key she does not have yet.
    while ((await packetsReceived(alice)) < 5) await alice.page.waitForTimeout(20);
    expect(waiting.length).toBeGreaterThan(0);
    isHolding = false;
    for (const message of waiting.splice(0)) toServer(message);

    await untilOpened([alice, bob], 150);
    const seen = { alice: await counters(alice), bob: await counters(bob) };
    expect(seen.alice.held, JSON.stringify(seen)).toBeGreaterThanOrEqual(5);
    for (const side of [seen.alice, seen.bob]) {
      expect({ noKey: side.noKey, failed: side.failed }, JSON.stringify(seen)).toEqual({
        noKey: 0,
        failed: 0,
      });
    }
  }, 120_000);
});
