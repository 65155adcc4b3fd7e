/**
 * Who is speaking (spec 000 §9 "Voice activity threshold 30"): an AnalyserNode on the local
 * outgoing audio (after the disguise, what the others hear) and on every received track (after
 * the frame decryption: what this browser plays). The level is the mean of the analyser's byte
 * frequency bins (0..255); a level above 30 lights the participant's indicator, which stays lit
 * VOICE_ACTIVITY_HOLD_MS after the last loud measure so that words do not flicker.
 */
import {
  VOICE_ACTIVITY_HOLD_MS,
  VOICE_ACTIVITY_POLL_MS,
  VOICE_ACTIVITY_THRESHOLD,
} from './voice-constants.js';

/** The mean of byte frequency bins (0..255); 0 for none. */
export function voiceActivityLevel(bins: ArrayLike<number>): number {
  if (bins.length === 0) return 0;
  let sum = 0;
  for (let index = 0; index < bins.length; index += 1) sum += bins[index] ?? 0;
  return sum / bins.length;
}

/** Above the spec's threshold (30): speaking. */
export function isVoiceActive(level: number): boolean {
  return level > VOICE_ACTIVITY_THRESHOLD;
}

/** 2048 samples: at 48 kHz a 43 ms window, so polls every 50 ms miss little of a short sound. */
const FFT_SIZE = 2048;

interface Watched {
  source: AudioNode;
  /** Disconnected on unwatch only when this monitor created it. */
  isOwnSource: boolean;
  analyser: AnalyserNode;
  bins: Uint8Array<ArrayBuffer>;
  loudAt: number | null;
}

export class VoiceActivityMonitor {
  readonly #watched = new Map<string, Watched>();
  #speaking: readonly string[] = [];
  #timer: number | null = null;

  constructor(
    private readonly context: BaseAudioContext,
    private readonly onChange: (speaking: readonly string[]) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Measures `stream` (a received track) as `id`. */
  watchStream(id: string, stream: MediaStream): void {
    if (!(this.context instanceof AudioContext)) return;
    this.#watch(id, this.context.createMediaStreamSource(stream), true);
  }

  /** Measures the output of `node` (the local chain) as `id`. */
  watchNode(id: string, node: AudioNode): void {
    this.#watch(id, node, false);
  }

  #watch(id: string, source: AudioNode, isOwnSource: boolean): void {
    this.unwatch(id);
    const analyser = this.context.createAnalyser();
    analyser.fftSize = FFT_SIZE;
    source.connect(analyser);
    this.#watched.set(id, {
      source,
      isOwnSource,
      analyser,
      bins: new Uint8Array(analyser.frequencyBinCount),
      loudAt: null,
    });
    this.#timer ??= window.setInterval(() => this.poll(), VOICE_ACTIVITY_POLL_MS);
  }

  unwatch(id: string): void {
    const watched = this.#watched.get(id);
    if (!watched) return;
    this.#watched.delete(id);
    try {
      if (watched.isOwnSource) watched.source.disconnect();
      else watched.source.disconnect(watched.analyser);
    } catch {
      // Already disconnected with its context.
    }
    this.poll();
  }

  /** One measure of every watched source; `onChange` when who speaks changed. */
  poll(): void {
    const now = this.now();
    const speaking: string[] = [];
    for (const [id, watched] of this.#watched) {
      watched.analyser.getByteFrequencyData(watched.bins);
      if (isVoiceActive(voiceActivityLevel(watched.bins))) watched.loudAt = now;
      if (watched.loudAt !== null && now - watched.loudAt < VOICE_ACTIVITY_HOLD_MS)
        speaking.push(id);
    }
    speaking.sort();
    if (speaking.join() === this.#speaking.join()) return;
    this.#speaking = speaking;
    this.onChange(speaking);
  }

  close(): void {
    if (this.#timer !== null) window.clearInterval(this.#timer);
    this.#timer = null;
    for (const id of [...this.#watched.keys()]) this.unwatch(id);
  }
}
