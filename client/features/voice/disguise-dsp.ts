/**
 * The voice disguise's signal path (spec 000 §3 "Voice modulation settings"), free of any Web
 * Audio type so Node can test it: a streaming phase vocoder (STFT of 2048 samples, hop 512, Hann
 * window, true-frequency estimation per bin) that shifts pitch and formants independently.
 *
 * Per analysis frame:
 * 1. magnitude and true frequency of every bin (phase difference against the expected advance);
 * 2. the spectral envelope: the magnitude smoothed over ±ENVELOPE_HALF_WIDTH_HZ (wider than the
 *    spacing of a voice's harmonics, so it follows the formants, not the harmonics);
 * 3. the fine structure (magnitude ÷ envelope) moves to k·p with frequency f·p, p = 2^(pitch/12):
 *    the harmonics, hence the fundamental, scale by p;
 * 4. it is multiplied by the envelope read at k / q, q = 2^(formant/12): the formants scale by q
 *    and the fundamental does not move;
 * 5. robotize gives every bin the same phase (a flat, buzzing monotone at the hop rate);
 *    scrambling jitters p and q by a random ±1 semitone each frame, so the pitch contour a
 *    listener or a voiceprint matcher keys on is broken up;
 * 6. inverse FFT, window, overlap-add.
 *
 * All settings at zero is an exact pass-through (no latency). Otherwise the output is late by
 * FFT_SIZE − HOP samples (32 ms at 48 kHz).
 */

export interface DisguiseParams {
  /** Semitones, −24..24. */
  pitch: number;
  /** Semitones, −12..12. */
  formant: number;
  robotize: boolean;
  scrambling: boolean;
}

export const FFT_SIZE = 2048;
export const OVERSAMPLING = 4;
export const HOP = FFT_SIZE / OVERSAMPLING;
const HALF = FFT_SIZE / 2;
const ENVELOPE_HALF_WIDTH_HZ = 220;
const SCRAMBLE_SEMITONES = 1;
/**
 * The envelope applied after a shift never falls below this fraction of its peak (−34 dB), so a
 * harmonic moved where the original spectrum had nothing (a tone two octaves up) stays audible.
 */
const ENVELOPE_FLOOR = 0.02;

/** In-place iterative radix-2 FFT; `sign` −1 forward, +1 inverse (unscaled). */
export function fft(re: Float64Array, im: Float64Array, sign: -1 | 1): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      const tr = re[i]!;
      re[i] = re[j]!;
      re[j] = tr;
      const ti = im[i]!;
      im[i] = im[j]!;
      im[j] = ti;
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const angle = (sign * 2 * Math.PI) / len;
    const wr = Math.cos(angle);
    const wi = Math.sin(angle);
    for (let start = 0; start < n; start += len) {
      let cr = 1;
      let ci = 0;
      for (let k = 0; k < len / 2; k++) {
        const a = start + k;
        const b = a + len / 2;
        const xr = re[b]! * cr - im[b]! * ci;
        const xi = re[b]! * ci + im[b]! * cr;
        re[b] = re[a]! - xr;
        im[b] = im[a]! - xi;
        re[a] = re[a]! + xr;
        im[a] = im[a]! + xi;
        const next = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = next;
      }
    }
  }
}

export function isBypass(params: DisguiseParams): boolean {
  return params.pitch === 0 && params.formant === 0 && !params.robotize && !params.scrambling;
}

export class DisguiseDsp {
  #params: DisguiseParams = { pitch: 0, formant: 0, robotize: false, scrambling: false };
  readonly #window = new Float64Array(FFT_SIZE);
  readonly #inFifo = new Float64Array(FFT_SIZE);
  readonly #outFifo = new Float64Array(FFT_SIZE);
  readonly #outAccum = new Float64Array(2 * FFT_SIZE);
  readonly #re = new Float64Array(FFT_SIZE);
  readonly #im = new Float64Array(FFT_SIZE);
  readonly #lastPhase = new Float64Array(HALF + 1);
  readonly #sumPhase = new Float64Array(HALF + 1);
  readonly #anaMag = new Float64Array(HALF + 1);
  readonly #anaFreq = new Float64Array(HALF + 1);
  readonly #envelope = new Float64Array(HALF + 1);
  readonly #prefix = new Float64Array(HALF + 2);
  readonly #synMag = new Float64Array(HALF + 1);
  readonly #synFreq = new Float64Array(HALF + 1);
  readonly #envelopeHalfWidth: number;
  #rover = FFT_SIZE - HOP;
  #random: () => number;

  constructor(sampleRate: number, random: () => number = Math.random) {
    for (let k = 0; k < FFT_SIZE; k++)
      this.#window[k] = 0.5 - 0.5 * Math.cos((2 * Math.PI * k) / FFT_SIZE);
    this.#envelopeHalfWidth = Math.max(
      2,
      Math.round(ENVELOPE_HALF_WIDTH_HZ / (sampleRate / FFT_SIZE)),
    );
    this.#random = random;
  }

  get params(): DisguiseParams {
    return this.#params;
  }

  setParams(params: DisguiseParams): void {
    this.#params = {
      pitch: clamp(Math.round(params.pitch), -24, 24),
      formant: clamp(Math.round(params.formant), -12, 12),
      robotize: params.robotize,
      scrambling: params.scrambling,
    };
  }

  /** Processes `input` into `output` (same length, any length). */
  process(input: Float32Array, output: Float32Array): void {
    if (isBypass(this.#params)) {
      output.set(input);
      return;
    }
    const latency = FFT_SIZE - HOP;
    for (let i = 0; i < input.length; i++) {
      this.#inFifo[this.#rover] = input[i]!;
      output[i] = this.#outFifo[this.#rover - latency]!;
      this.#rover++;
      if (this.#rover >= FFT_SIZE) {
        this.#rover = latency;
        this.#frame();
      }
    }
  }

  #frame(): void {
    const re = this.#re;
    const im = this.#im;
    const expected = (2 * Math.PI * HOP) / FFT_SIZE;
    for (let k = 0; k < FFT_SIZE; k++) {
      re[k] = this.#inFifo[k]! * this.#window[k]!;
      im[k] = 0;
    }
    fft(re, im, -1);
    for (let k = 0; k <= HALF; k++) {
      const magnitude = 2 * Math.hypot(re[k]!, im[k]!);
      const phase = Math.atan2(im[k]!, re[k]!);
      let delta = phase - this.#lastPhase[k]! - k * expected;
      this.#lastPhase[k] = phase;
      delta -= 2 * Math.PI * Math.round(delta / (2 * Math.PI));
      this.#anaMag[k] = magnitude;
      this.#anaFreq[k] = k + (OVERSAMPLING * delta) / (2 * Math.PI);
    }
    this.#smoothEnvelope();

    const { pitch, formant, robotize, scrambling } = this.#params;
    const jitter = () => (scrambling ? (this.#random() * 2 - 1) * SCRAMBLE_SEMITONES : 0);
    const p = 2 ** ((pitch + jitter()) / 12);
    const q = 2 ** ((formant + jitter()) / 12);
    let peak = 0;
    for (let k = 0; k <= HALF; k++) peak = Math.max(peak, this.#envelope[k]!);
    const floor = peak * ENVELOPE_FLOOR;
    this.#synMag.fill(0);
    this.#synFreq.fill(0);
    for (let k = 0; k <= HALF; k++) {
      const target = Math.round(k * p);
      if (target > HALF) break;
      // Whitened by the same floor: where the spectrum is empty the fine structure stays ~0.
      const envelope = Math.max(floor, this.#envelope[k]!);
      const fine = envelope > 1e-12 ? this.#anaMag[k]! / envelope : 0;
      this.#synMag[target] = this.#synMag[target]! + fine;
      this.#synFreq[target] = this.#anaFreq[k]! * p;
    }
    for (let k = 0; k <= HALF; k++) {
      const magnitude = this.#synMag[k]! * Math.max(floor, this.#envelopeAt(k / q));
      let phase: number;
      if (robotize) phase = 0;
      else {
        const advance = ((this.#synFreq[k]! - k) * 2 * Math.PI) / OVERSAMPLING + k * expected;
        phase = this.#sumPhase[k]! + advance;
        phase -= 2 * Math.PI * Math.round(phase / (2 * Math.PI));
        this.#sumPhase[k] = phase;
      }
      re[k] = magnitude * Math.cos(phase);
      im[k] = magnitude * Math.sin(phase);
    }
    for (let k = HALF + 1; k < FFT_SIZE; k++) {
      re[k] = 0;
      im[k] = 0;
    }
    fft(re, im, 1);
    const scale = 2 / (HALF * OVERSAMPLING);
    for (let k = 0; k < FFT_SIZE; k++)
      this.#outAccum[k] = this.#outAccum[k]! + this.#window[k]! * re[k]! * scale;
    this.#outFifo.set(this.#outAccum.subarray(0, HOP), 0);
    this.#outAccum.copyWithin(0, HOP, HOP + FFT_SIZE);
    this.#outAccum.fill(0, FFT_SIZE);
    this.#inFifo.copyWithin(0, HOP, FFT_SIZE);
  }

  /** Moving average of the magnitude over ±envelopeHalfWidth bins (prefix sums). */
  #smoothEnvelope(): void {
    const prefix = this.#prefix;
    prefix[0] = 0;
    for (let k = 0; k <= HALF; k++) prefix[k + 1] = prefix[k]! + this.#anaMag[k]!;
    const w = this.#envelopeHalfWidth;
    for (let k = 0; k <= HALF; k++) {
      const lo = Math.max(0, k - w);
      const hi = Math.min(HALF, k + w);
      this.#envelope[k] = (prefix[hi + 1]! - prefix[lo]!) / (hi - lo + 1);
    }
  }

  /** The envelope at a fractional bin (linear interpolation; zero past Nyquist). */
  #envelopeAt(bin: number): number {
    if (bin >= HALF) return 0;
    const lo = Math.floor(bin);
    const t = bin - lo;
    return this.#envelope[lo]! * (1 - t) + this.#envelope[lo + 1]! * t;
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Number.isFinite(value) ? value : 0));
}
