/**
 * The disguise's phase vocoder (client/features/voice/disguise-dsp.ts) on a known tone, measured
 * by autocorrelation: pitch moves the fundamental by 2^(semitones/12), formant alone leaves it.
 */
import { describe, expect, it } from 'vitest';
import { DisguiseDsp, fft, type DisguiseParams } from '../../client/features/voice/disguise-dsp.js';
import { fundamentalHz, sine } from '../support/pitch.js';

const RATE = 48_000;
const NEUTRAL: DisguiseParams = { pitch: 0, formant: 0, robotize: false, scrambling: false };

function run(params: Partial<DisguiseParams>, input: Float32Array): Float32Array {
  const dsp = new DisguiseDsp(RATE);
  dsp.setParams({ ...NEUTRAL, ...params });
  const output = new Float32Array(input.length);
  for (let at = 0; at < input.length; at += 128) {
    dsp.process(input.subarray(at, at + 128), output.subarray(at, at + 128));
  }
  return output;
}

/** The second half: past the vocoder's latency and start-up. */
function settled(samples: Float32Array): Float32Array {
  return samples.subarray(samples.length / 2);
}

describe('voice disguise DSP', () => {
  const tone = sine(220, 1.5, RATE);

  it('measures the input tone itself at 220 Hz', () => {
    expect(fundamentalHz(settled(tone), RATE)).toBeCloseTo(220, 0);
  });

  it.each([
    ['deep', -12],
    ['cipher', 8],
    ['professional', -6],
    ['up an octave', 12],
  ])('pitch of %s (%i semitones) scales the fundamental within 3 percent', (_name, semitones) => {
    const measured = fundamentalHz(settled(run({ pitch: semitones }, tone)), RATE);
    const expected = 220 * 2 ** (semitones / 12);
    expect(Math.abs(measured / expected - 1)).toBeLessThan(0.03);
  });

  it.each([-8, -4, 6, 12])(
    'formant %i alone leaves the fundamental within 3 percent',
    (formant) => {
      const output = settled(run({ formant }, tone));
      expect(Math.abs(fundamentalHz(output, RATE) / 220 - 1)).toBeLessThan(0.03);
      // …and the tone is still there (not silenced by the envelope).
      const rms = Math.sqrt(output.reduce((sum, value) => sum + value * value, 0) / output.length);
      expect(rms).toBeGreaterThan(0.05);
    },
  );

  it('passes audio through unchanged when every setting is neutral', () => {
    expect(Array.from(run({}, tone))).toEqual(Array.from(tone));
  });

  it('changes the signal with robotize and with scrambling', () => {
    for (const params of [{ robotize: true }, { scrambling: true }]) {
      const output = settled(run(params, tone));
      const input = settled(tone);
      let difference = 0;
      for (let i = 0; i < output.length; i++) difference += Math.abs(output[i]! - input[i]!);
      expect(difference / output.length).toBeGreaterThan(0.05);
    }
  });

  it('clamps settings to the sliders of spec 000 §5', () => {
    const dsp = new DisguiseDsp(RATE);
    dsp.setParams({ pitch: 40, formant: -30, robotize: false, scrambling: false });
    expect(dsp.params).toMatchObject({ pitch: 24, formant: -12 });
  });

  it('inverts its own FFT', () => {
    const re = Float64Array.from({ length: 16 }, (_, i) => Math.sin(i) + i / 7);
    const im = new Float64Array(16);
    const original = Array.from(re);
    fft(re, im, -1);
    fft(re, im, 1);
    re.forEach((value, i) => expect(value / 16).toBeCloseTo(original[i]!, 9));
  });
});
