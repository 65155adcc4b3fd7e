/**
 * An encrypted call between two browsers (issue 16), against the real server: alice and bob join
 * the public channel's call, carol stays in the channel but out of the call.
 *
 * - the call connects over loopback (`--allow-loopback-in-peer-connection`), audio flows: non-zero
 *   `bytesReceived` on both sides (getStats of the peer connections themselves);
 * - frames decrypt only with the frame key: bob's outgoing `sender_key` frames (which carry his
 *   frame key) are withheld on his socket, so alice receives his frames but can open none of them
 *   (dropped for want of a key) while bob opens hers; once the frames flow again, bob's next
 *   30-second rotation reaches alice and she opens his frames (and the rotation counter rose);
 * - the fake microphone plays a 220 Hz tone; alice uses preset "deep" (−12), and the fundamental
 *   bob receives from her is 110 Hz within 3 %;
 * - alice's encryption toggle: her signed `encryption_status` reaches bob, whose window names her
 *   as sending without frame encryption by her own choice, and her clear frames play there;
 * - deafen (both, so neither plays the other's tone into an echo canceller) keeps media flowing;
 * - the quality tier of loopback is excellent and alice's sender is capped at its 64 kbit/s;
 * - mute: the audio level bob receives from alice falls to silence;
 * - carol, a member not in the call, receives no `webrtc_signaling` frame at all;
 * - hang-up releases every microphone track and closes every RTCPeerConnection.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page, WebSocketRoute } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { applyPreset, DEFAULT_VOICE_SETTINGS } from '../../client/features/voice/voice-settings.js';
import { fundamentalHz, sine, wavFile } from '../support/pitch.js';
import { ChatPageObject } from './pages/chat-page.js';
import { SecurityStatusObject } from './pages/security-status.js';
import { browserSuite, newActor, type Actor } from './support/browser.js';

const RATE = 48_000;
const TONE_WAV = path.join(mkdtempSync(path.join(tmpdir(), 'voice-call-')), 'tone.wav');
writeFileSync(TONE_WAV, wavFile(sine(220, 20, RATE, 0.5), RATE));

/** Records what the test inspects: every microphone track and every peer connection. */
function instrumentPage() {
  const probe = { tracks: [] as MediaStreamTrack[], pcs: [] as RTCPeerConnection[] };
  (window as unknown as { __voiceProbe: typeof probe }).__voiceProbe = probe;
  const getUserMedia = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
  navigator.mediaDevices.getUserMedia = async (constraints) => {
    const stream = await getUserMedia(constraints);
    probe.tracks.push(...stream.getTracks());
    return stream;
  };
  const Native = window.RTCPeerConnection;
  class Recorded extends Native {
    constructor(config?: RTCConfiguration) {
      super(config);
      probe.pcs.push(this);
    }
  }
  window.RTCPeerConnection = Recorded;
}

interface Totals {
  bytesReceived: number;
  bytesSent: number;
  audioLevel: number;
}

/** Sums inbound/outbound audio of every open peer connection of the page. */
function totals(page: Page): Promise<Totals> {
  return page.evaluate(async () => {
    const probe = (window as unknown as { __voiceProbe: { pcs: RTCPeerConnection[] } })
      .__voiceProbe;
    const sum = { bytesReceived: 0, bytesSent: 0, audioLevel: 0 };
    for (const pc of probe.pcs) {
      if (pc.connectionState === 'closed') continue;
      const report = await pc.getStats();
      report.forEach((stat: Record<string, unknown>) => {
        if (stat.type === 'inbound-rtp' && stat.kind === 'audio') {
          sum.bytesReceived += Number(stat.bytesReceived ?? 0);
          sum.audioLevel = Math.max(sum.audioLevel, Number(stat.audioLevel ?? 0));
        }
        if (stat.type === 'outbound-rtp' && stat.kind === 'audio')
          sum.bytesSent += Number(stat.bytesSent ?? 0);
      });
    }
    return sum;
  });
}

/**
 * The level heard on `page` (getStats' audioLevel), polled every 0.5 s until `settled` holds or 15 s
 * pass; the last reading either way. Polled here because waitForFunction takes a promise for a
 * truthy answer and returns at once.
 */
async function levelOnceSettled(page: Page, settled: (level: number) => boolean): Promise<number> {
  const by = Date.now() + 15_000;
  let level = (await totals(page)).audioLevel;
  while (!settled(level) && Date.now() < by) {
    await page.waitForTimeout(500);
    level = (await totals(page)).audioLevel;
  }
  return level;
}

/** 0.68 s of the audio received on the page's first open peer connection. */
function receivedSamples(page: Page): Promise<{ samples: number[]; rate: number }> {
  return page.evaluate(async () => {
    const probe = (window as unknown as { __voiceProbe: { pcs: RTCPeerConnection[] } })
      .__voiceProbe;
    const pc = probe.pcs.find((candidate) => candidate.connectionState === 'connected');
    const track = pc?.getReceivers().find((receiver) => receiver.track.kind === 'audio')?.track;
    if (!track) throw new Error('no received audio track');
    const context = new AudioContext({ sampleRate: 48_000 });
    const source = context.createMediaStreamSource(new MediaStream([track]));
    const analyser = context.createAnalyser();
    analyser.fftSize = 32768;
    const silent = context.createGain();
    silent.gain.value = 0;
    source.connect(analyser).connect(silent).connect(context.destination);
    await context.resume();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const samples = new Float32Array(32768);
    analyser.getFloatTimeDomainData(samples);
    await context.close();
    return { samples: Array.from(samples), rate: context.sampleRate };
  });
}

async function windowNumber(page: Page, attribute: string): Promise<number> {
  return Number(await page.getByTestId('voice-call-window').getAttribute(attribute));
}

/** Waits until the call window's `attribute` equals `expected` (a string) or exceeds it (a number). */
async function waitForWindow(
  page: Page,
  attribute: string,
  expected: string | { above: number },
  timeout = 30_000,
): Promise<void> {
  const attributes = () =>
    page.evaluate(() => {
      const element = document.querySelector('[data-testid="voice-call-window"]');
      return element
        ? Object.fromEntries(
            [...element.attributes]
              .filter((attribute) => attribute.name.startsWith('data-'))
              .map((attribute) => [attribute.name, attribute.value]),
          )
        : null;
    });
  await page
    .waitForFunction(
      ({ name, want }) => {
        const value = document
          .querySelector('[data-testid="voice-call-window"]')
          ?.getAttribute(name);
        if (value === null || value === undefined) return false;
        return typeof want === 'string' ? value === want : Number(value) > want.above;
      },
      { name: attribute, want: expected },
      { timeout },
    )
    .catch(async (error: unknown) => {
      // Say what the window showed instead.
      throw new Error(
        `${attribute} never reached ${JSON.stringify(expected)}: ${JSON.stringify(await attributes())}`,
        { cause: error },
      );
    });
}

describe('an encrypted voice call between two browsers', () => {
  const suite = browserSuite(
    {},
    {
      media: true,
      args: [
        '--allow-loopback-in-peer-connection',
        `--use-file-for-fake-audio-capture=${TONE_WAV}`,
        '--autoplay-policy=no-user-gesture-required',
      ],
    },
  );

  async function visitor(name: string, storage: Record<string, string> = {}): Promise<Actor> {
    const actor = await newActor(suite.browser, name, {
      storage: { securechannel_access_mode: 'public', 'chat-username': name, ...storage },
    });
    suite.actors.push(actor);
    await actor.context.addInitScript(instrumentPage);
    return actor;
  }

  it('connects, encrypts frames end to end, mutes, hangs up, and keeps others out', async () => {
    const deep = applyPreset(DEFAULT_VOICE_SETTINGS, 'deep');
    const alice = await visitor('Agent4101', { 'securechannel-voice': JSON.stringify(deep) });
    const bob = await visitor('Ghost4202');
    const carol = await visitor('Node4303');

    // bob's socket: his sender_key frames can be withheld (they carry his frame key).
    let isWithholding = false;
    let withheld = 0;
    await bob.page.routeWebSocket(/\/chat-ws$/, (ws: WebSocketRoute) => {
      const server = ws.connectToServer();
      ws.onMessage((message) => {
        if (isWithholding && typeof message === 'string' && message.includes('"sender_key"')) {
          withheld += 1;
          return;
        }
        server.send(message);
      });
      server.onMessage((message) => ws.send(message));
    });

    // Every frame carol receives, by type.
    const carolFrames: string[] = [];
    carol.page.on('websocket', (socket) => {
      socket.on('framereceived', (frame) => {
        try {
          const parsed = JSON.parse(String(frame.payload)) as { type?: unknown };
          if (typeof parsed.type === 'string') carolFrames.push(parsed.type);
        } catch {
          // Not JSON: not a frame of the protocol.
        }
      });
    });

    for (const actor of [alice, bob, carol]) {
      await actor.page.goto(`${suite.server.baseUrl}/`);
      await new ChatPageObject(actor.page).waitUntilJoined();
    }
    for (const actor of [alice, bob, carol]) {
      await new SecurityStatusObject(actor.page).waitUntilEncrypting();
    }
    await new SecurityStatusObject(alice.page).waitForSenderKeysOf('Ghost4202');
    await new SecurityStatusObject(bob.page).waitForSenderKeysOf('Agent4101');

    isWithholding = true;
    await alice.page.getByTestId('voice-call-button').click();
    await alice.page.getByTestId('voice-call-window').waitFor();
    await bob.page.getByTestId('voice-call-button').click();
    await waitForWindow(alice.page, 'data-connection', 'connected');
    await waitForWindow(bob.page, 'data-connection', 'connected');

    // Both deafen: nothing is played out (so no echo canceller hears one tone in the other's
    // microphone), while the media keeps flowing.
    for (const actor of [alice, bob]) {
      await actor.page.getByTestId('voice-deafen').click();
      expect(await actor.page.getByTestId('voice-deafen').getAttribute('aria-pressed')).toBe(
        'true',
      );
    }

    // bob opens alice's frames; alice receives bob's but has no key for them.
    await waitForWindow(bob.page, 'data-frames-opened', { above: 20 });
    await waitForWindow(alice.page, 'data-frames-no-key', { above: 20 });
    expect(await windowNumber(alice.page, 'data-frames-opened')).toBe(0);
    expect(withheld).toBeGreaterThan(0);
    const aliceTotals = await totals(alice.page);
    const bobTotals = await totals(bob.page);
    expect(aliceTotals.bytesReceived).toBeGreaterThan(0);
    expect(bobTotals.bytesReceived).toBeGreaterThan(0);

    // The quality probe (every 2 s, getStats) rates loopback excellent and caps alice's sender at
    // that tier's opus bitrate, 64 kbit/s.
    await alice.page.getByTestId('voice-quality').filter({ hasText: 'EXCELLENT' }).waitFor();
    const maxBitrates = await alice.page.evaluate(() => {
      const probe = (window as unknown as { __voiceProbe: { pcs: RTCPeerConnection[] } })
        .__voiceProbe;
      return probe.pcs.flatMap((pc) =>
        pc
          .getSenders()
          .flatMap((sender) => sender.getParameters().encodings.map((e) => e.maxBitrate)),
      );
    });
    expect(maxBitrates).toEqual([64_000]);

    // alice speaks through "deep": bob hears her 220 Hz tone at 110 Hz.
    const heard = await receivedSamples(bob.page);
    const received = fundamentalHz(heard.samples, heard.rate);
    expect(Math.abs(received / 110 - 1)).toBeLessThan(0.03);

    // bob's key gets through again: his next rotation (every 30 s) reaches alice.
    isWithholding = false;
    await waitForWindow(alice.page, 'data-frames-opened', { above: 20 }, 45_000);
    await waitForWindow(bob.page, 'data-rotations', { above: 0 }, 10_000);

    // alice turns frame encryption off: her signed encryption_status reaches bob, whose window
    // says so, and her clear frames play there under her word; on again, the line goes.
    expect(await bob.page.getByTestId('voice-peer-clear').count()).toBe(0);
    await alice.page.getByTestId('voice-encryption-toggle').click();
    await alice.page.getByTestId('voice-encryption').filter({ hasText: 'OFF' }).waitFor();
    await bob.page
      .getByTestId('voice-peer-clear')
      .filter({ hasText: 'Agent4101: E2E OFF by their signed choice' })
      .waitFor({ timeout: 15_000 });
    await waitForWindow(bob.page, 'data-frames-clear', { above: 20 });
    expect(await bob.page.getByTestId('voice-status-warning').count()).toBe(0);
    await alice.page.getByTestId('voice-encryption-toggle').click();
    await alice.page.getByTestId('voice-encryption').filter({ hasText: 'ACTIVE' }).waitFor();
    await bob.page.getByTestId('voice-peer-clear').waitFor({ state: 'detached', timeout: 15_000 });

    // Mute: what bob hears from alice falls silent (bob undeafens to hear it at all).
    await bob.page.getByTestId('voice-deafen').click();
    expect(await bob.page.getByTestId('voice-deafen').getAttribute('aria-pressed')).toBe('false');
    expect(await levelOnceSettled(bob.page, (level) => level > 0.01)).toBeGreaterThan(0.01);
    await alice.page.getByTestId('voice-mute').click();
    expect(await levelOnceSettled(bob.page, (level) => level < 0.001)).toBeLessThan(0.001);

    // carol is in the room but not in the call: she sees the roster, never a signal.
    expect(carolFrames).toContain('voice_call_participants');
    await carol.page
      .getByTestId('voice-call-button')
      .filter({ hasText: 'JOIN CALL · 2' })
      .waitFor();
    expect(carolFrames).not.toContain('webrtc_signaling');
    expect(await carol.page.getByTestId('voice-call-window').count()).toBe(0);

    // Hang-up releases every track and peer connection.
    await alice.page.getByTestId('voice-leave').click();
    await alice.page.getByTestId('voice-call-window').waitFor({ state: 'detached' });
    const released = await alice.page.evaluate(() => {
      const probe = (
        window as unknown as {
          __voiceProbe: { tracks: MediaStreamTrack[]; pcs: RTCPeerConnection[] };
        }
      ).__voiceProbe;
      return {
        tracks: probe.tracks.map((track) => track.readyState),
        pcs: probe.pcs.map((pc) => pc.signalingState),
      };
    });
    expect(released.tracks.length).toBeGreaterThan(0);
    expect(released.tracks.every((state) => state === 'ended')).toBe(true);
    expect(released.pcs.length).toBeGreaterThan(0);
    expect(released.pcs.every((state) => state === 'closed')).toBe(true);
    // bob's side drops alice: the roster is bob alone.
    await bob.page
      .getByTestId('voice-call-window')
      .getByText('Participants (1)')
      .waitFor({ timeout: 15_000 });
  }, 180_000);
});
