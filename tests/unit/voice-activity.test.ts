/**
 * Speaking indicators (spec 000 §9 "Voice activity threshold 30"): the level is the mean of the
 * analyser's byte frequency bins, above 30 is speaking; the monitor holds an indicator briefly
 * and reports only changes.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  isVoiceActive,
  VoiceActivityMonitor,
  voiceActivityLevel,
} from '../../client/features/voice/voice-activity.js';
import {
  VOICE_ACTIVITY_HOLD_MS,
  VOICE_ACTIVITY_THRESHOLD,
} from '../../client/features/voice/voice-constants.js';

describe('voice activity level', () => {
  it('is the mean of the bins, 0 for none', () => {
    expect(voiceActivityLevel([])).toBe(0);
    expect(voiceActivityLevel(new Uint8Array([0, 0, 0, 0]))).toBe(0);
    expect(voiceActivityLevel(new Uint8Array([255, 255, 0, 0]))).toBe(127.5);
    expect(voiceActivityLevel(new Uint8Array(1024).fill(31))).toBe(31);
  });

  it('speaks above the threshold of 30, not at it', () => {
    expect(VOICE_ACTIVITY_THRESHOLD).toBe(30);
    expect(isVoiceActive(voiceActivityLevel(new Uint8Array(8).fill(30)))).toBe(false);
    expect(isVoiceActive(voiceActivityLevel(new Uint8Array([30, 30, 30, 31])))).toBe(true);
    expect(isVoiceActive(29.99)).toBe(false);
    expect(isVoiceActive(0)).toBe(false);
    // One loud bin among quiet ones: the mean decides, not the peak.
    expect(isVoiceActive(voiceActivityLevel([255, 0, 0, 0, 0, 0, 0, 0, 0]))).toBe(false);
  });
});

describe('VoiceActivityMonitor', () => {
  let levels: Record<string, number>;
  let clock: number;

  function fakeContext() {
    let current = '';
    return {
      createAnalyser: () => {
        const id = current;
        return {
          fftSize: 0,
          frequencyBinCount: 16,
          getByteFrequencyData: (bins: Uint8Array) => bins.fill(levels[id] ?? 0),
        };
      },
      /** The next analyser measures `id`. */
      next: (id: string) => {
        current = id;
      },
    };
  }

  function node() {
    return { connect: vi.fn(), disconnect: vi.fn() };
  }

  beforeEach(() => {
    levels = {};
    clock = 0;
    vi.stubGlobal('window', globalThis);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('lights who is above 30, holds it briefly, and reports changes only', () => {
    const context = fakeContext();
    const changes: (readonly string[])[] = [];
    const monitor = new VoiceActivityMonitor(
      context as unknown as BaseAudioContext,
      (speaking) => changes.push(speaking),
      () => clock,
    );
    for (const id of ['bob', 'alice']) {
      context.next(id);
      monitor.watchNode(id, node() as unknown as AudioNode);
    }
    monitor.poll();
    expect(changes).toEqual([]);

    levels.bob = 31;
    levels.alice = 30;
    monitor.poll();
    expect(changes).toEqual([['bob']]);
    monitor.poll();
    expect(changes).toHaveLength(1);

    // bob stops: still lit within the hold, off after it.
    levels.bob = 0;
    clock += VOICE_ACTIVITY_HOLD_MS - 1;
    monitor.poll();
    expect(changes).toHaveLength(1);
    clock += 1;
    monitor.poll();
    expect(changes.at(-1)).toEqual([]);

    levels.alice = 200;
    levels.bob = 200;
    monitor.poll();
    expect(changes.at(-1)).toEqual(['alice', 'bob']);

    // A participant no longer watched is no longer speaking.
    monitor.unwatch('bob');
    expect(changes.at(-1)).toEqual(['alice']);
    monitor.close();
    expect(changes.at(-1)).toEqual([]);
  });
});
