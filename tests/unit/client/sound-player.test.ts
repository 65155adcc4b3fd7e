import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  SOUND_RELEASE_SECONDS,
  SoundPlayer,
  type SoundContext,
  type ToneStep,
} from '../../../client/lib/sounds.js';

/** An AudioContext whose clock the test moves; it records what was asked of it. */
class FakeContext {
  currentTime = 0;
  state: AudioContextState = 'running';
  readonly calls: string[] = [];
  readonly destination = {} as AudioDestinationNode;

  createOscillator(): OscillatorNode {
    const node = {
      type: 'sine',
      frequency: { setValueAtTime: () => undefined },
      connect: (next: unknown) => next,
      disconnect: () => undefined,
      start: () => undefined,
      stop: () => undefined,
      onended: null,
    };
    return node as unknown as OscillatorNode;
  }

  createGain(): GainNode {
    const node = {
      gain: { setValueAtTime: () => undefined, exponentialRampToValueAtTime: () => undefined },
      connect: (next: unknown) => next,
      disconnect: () => undefined,
    };
    return node as unknown as GainNode;
  }

  resume(): Promise<void> {
    this.calls.push('resume');
    this.state = 'running';
    return Promise.resolve();
  }

  suspend(): Promise<void> {
    this.calls.push('suspend');
    this.state = 'suspended';
    return Promise.resolve();
  }

  /** Moves the audio clock (only while running) and the page's timers together. */
  advance(seconds: number): void {
    if (this.state === 'running') this.currentTime += seconds;
    vi.advanceTimersByTime(seconds * 1000);
  }
}

const NOTE: ToneStep = { frequency: 440, start: 0, duration: 0.2, wave: 'sine', level: 1 };
const LATE_NOTE: ToneStep = { ...NOTE, start: 0.3 };

describe('SoundPlayer (chat sounds let the audio device go between sounds)', () => {
  let context: FakeContext;
  let player: SoundPlayer;

  beforeEach(() => {
    vi.useFakeTimers();
    context = new FakeContext();
    player = new SoundPlayer(() => context as unknown as SoundContext);
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('suspends the context once the last note of a sound has ended, not before', () => {
    player.play([NOTE, LATE_NOTE], 0.3);
    context.advance(0.5 + SOUND_RELEASE_SECONDS - 0.05);
    expect(context.state).toBe('running');
    context.advance(0.1);
    expect(context.calls).toEqual(['suspend']);
    expect(context.state).toBe('suspended');
  });

  it('resumes for the next sound and lets go again after it', () => {
    player.play([NOTE], 0.3);
    context.advance(1);
    expect(context.state).toBe('suspended');

    player.play([NOTE], 0.3);
    expect(context.state).toBe('running');
    context.advance(1);
    expect(context.calls).toEqual(['suspend', 'resume', 'suspend']);
  });

  it('keeps playing while a second sound overlaps the first', () => {
    player.play([NOTE], 0.3);
    context.advance(0.15);
    player.play([NOTE, LATE_NOTE], 0.3);
    // The first sound's release time has passed; the second one's notes still play.
    context.advance(0.2 + SOUND_RELEASE_SECONDS);
    expect(context.state).toBe('running');
    context.advance(0.4);
    expect(context.calls).toEqual(['suspend']);
  });

  it('waits for a clock that starts late, and leaves alone a context that never started', () => {
    // Autoplay refused: resume() stays pending and the clock does not move.
    context.state = 'suspended';
    context.resume = () => {
      context.calls.push('resume');
      return new Promise<void>(() => undefined);
    };
    player.play([NOTE], 0.3);
    context.advance(5);
    expect(context.calls).toEqual(['resume']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stays silent without WebAudio', () => {
    const silent = new SoundPlayer(() => {
      throw new Error('no WebAudio');
    });
    expect(() => silent.play([NOTE], 0.3)).not.toThrow();
  });
});
