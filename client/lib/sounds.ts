/**
 * Chat sounds (spec 000 §3 "Sound settings"): short tones synthesised with WebAudio, so no audio
 * files ship. Settings live under `chat-sound-settings`. Nothing here touches `window` at import
 * time; the AudioContext is created on first use, because browsers only let a page start audio
 * after a user gesture.
 */
import { STORAGE_KEYS, readStorage, writeStorage } from './storage-keys.js';

export type SoundKind = 'message' | 'system' | 'auth';

/** Defaults of spec 000 §3: enabled, volume 0.3, every kind on. */
export const DEFAULT_SOUND_SETTINGS = {
  enabled: true,
  volume: 0.3,
  messageSound: true,
  systemSound: true,
  authSound: true,
} as const;

export interface SoundSettings {
  enabled: boolean;
  volume: number;
  messageSound: boolean;
  systemSound: boolean;
  authSound: boolean;
}

function booleanOr(value: unknown, fallback: boolean): boolean {
  return typeof value === 'boolean' ? value : fallback;
}

/**
 * Settings from any value: a missing or malformed field falls back to its default, extras are
 * dropped; the volume is a finite number from 0 to 1. Written out rather than as a zod schema so
 * that the chat room paints without zod (issue 22, target 5).
 */
export function toSoundSettings(value: unknown): SoundSettings {
  const record: Record<string, unknown> =
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  const { volume } = record;
  return {
    enabled: booleanOr(record.enabled, DEFAULT_SOUND_SETTINGS.enabled),
    volume:
      typeof volume === 'number' && Number.isFinite(volume) && volume >= 0 && volume <= 1
        ? volume
        : DEFAULT_SOUND_SETTINGS.volume,
    messageSound: booleanOr(record.messageSound, DEFAULT_SOUND_SETTINGS.messageSound),
    systemSound: booleanOr(record.systemSound, DEFAULT_SOUND_SETTINGS.systemSound),
    authSound: booleanOr(record.authSound, DEFAULT_SOUND_SETTINGS.authSound),
  };
}

/** Window event fired when this tab saves new settings. */
export const SOUND_SETTINGS_EVENT = 'securechannel:sound-settings';

/** Parses the raw stored text; anything unreadable gives the defaults. */
export function parseSoundSettings(raw: string | null): SoundSettings {
  if (raw === null) return { ...DEFAULT_SOUND_SETTINGS };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ...DEFAULT_SOUND_SETTINGS };
  }
  return toSoundSettings(value);
}

export function readSoundSettings(): SoundSettings {
  return parseSoundSettings(readStorage(STORAGE_KEYS.soundSettings));
}

export function writeSoundSettings(settings: SoundSettings): void {
  writeStorage(STORAGE_KEYS.soundSettings, JSON.stringify(settings));
  window.dispatchEvent(new Event(SOUND_SETTINGS_EVENT));
}

/** Whether a kind of sound may play under these settings. */
export function isSoundAllowed(settings: SoundSettings, kind: SoundKind): boolean {
  if (!settings.enabled || settings.volume <= 0) return false;
  if (kind === 'message') return settings.messageSound;
  if (kind === 'system') return settings.systemSound;
  return settings.authSound;
}

export interface ToneStep {
  frequency: number;
  /** Seconds after the sound starts. */
  start: number;
  /** Seconds. */
  duration: number;
  wave: OscillatorType;
  /** Share of the user's volume, 0..1. */
  level: number;
}

/** Each sound as a few short notes: a soft double blip, a low square pulse, a rising triad. */
const TONES: Record<SoundKind, readonly ToneStep[]> = {
  message: [
    { frequency: 880, start: 0, duration: 0.07, wave: 'sine', level: 0.8 },
    { frequency: 1320, start: 0.08, duration: 0.09, wave: 'sine', level: 0.7 },
  ],
  system: [
    { frequency: 330, start: 0, duration: 0.1, wave: 'square', level: 0.35 },
    { frequency: 247, start: 0.12, duration: 0.14, wave: 'square', level: 0.3 },
  ],
  auth: [
    { frequency: 523.25, start: 0, duration: 0.09, wave: 'triangle', level: 0.8 },
    { frequency: 659.25, start: 0.09, duration: 0.09, wave: 'triangle', level: 0.8 },
    { frequency: 783.99, start: 0.18, duration: 0.18, wave: 'triangle', level: 0.9 },
  ],
};

/** Exponential ramps cannot reach 0; this is silence for any listener. */
const SILENT_GAIN = 0.0001;
const ATTACK_SECONDS = 0.01;
/** How long after its last note the audio device is let go (seconds of the context's clock). */
export const SOUND_RELEASE_SECONDS = 0.5;

/** The part of an AudioContext the sounds use (a fake one in unit tests). */
export type SoundContext = Pick<
  AudioContext,
  'createOscillator' | 'createGain' | 'currentTime' | 'destination' | 'state' | 'resume' | 'suspend'
>;

/**
 * Plays the tones on one AudioContext, created on first use, and suspends it once the last
 * scheduled note has ended: a running context renders silence on the audio thread for as long
 * as the page is open (about 10 ms of CPU a second, and the device held), so between sounds
 * it sleeps; the next sound resumes it.
 */
export class SoundPlayer {
  #context: SoundContext | null = null;
  #unavailable = false;
  /** The context time at which the last scheduled note ends. */
  #quietAt = 0;
  #releaseTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly createContext: () => SoundContext) {}

  play(steps: readonly ToneStep[], volume: number): void {
    const context = this.#open();
    if (context === null) return;
    try {
      if (context.state === 'suspended') void context.resume().catch(() => undefined);
      const now = context.currentTime;
      for (const step of steps) playStep(context, step, volume, now);
      const end = Math.max(...steps.map((step) => now + step.start + step.duration));
      this.#quietAt = Math.max(this.#quietAt, end);
      this.#scheduleRelease(context);
    } catch {
      // Audio refused (autoplay policy, device lost): stay silent.
    }
  }

  #open(): SoundContext | null {
    if (this.#context !== null || this.#unavailable) return this.#context;
    try {
      this.#context = this.createContext();
    } catch {
      this.#unavailable = true;
    }
    return this.#context;
  }

  #scheduleRelease(context: SoundContext): void {
    clearTimeout(this.#releaseTimer);
    const wait = Math.max(0, this.#quietAt - context.currentTime) + SOUND_RELEASE_SECONDS;
    this.#releaseTimer = setTimeout(() => {
      this.#releaseTimer = undefined;
      // Not running (never allowed to start, or already asleep): nothing to let go.
      if (context.state !== 'running') return;
      // A note scheduled since, or a clock that started late, moves the release later.
      if (context.currentTime < this.#quietAt) return this.#scheduleRelease(context);
      void context.suspend().catch(() => undefined);
    }, wait * 1000);
  }
}

function playStep(context: SoundContext, step: ToneStep, volume: number, startAt: number): void {
  const oscillator = context.createOscillator();
  const gain = context.createGain();
  const begin = startAt + step.start;
  const end = begin + step.duration;
  const peak = Math.max(SILENT_GAIN, volume * step.level);

  oscillator.type = step.wave;
  oscillator.frequency.setValueAtTime(step.frequency, begin);
  // Short attack and exponential decay, so notes start and stop without clicks.
  gain.gain.setValueAtTime(SILENT_GAIN, begin);
  gain.gain.exponentialRampToValueAtTime(peak, begin + ATTACK_SECONDS);
  gain.gain.exponentialRampToValueAtTime(SILENT_GAIN, end);

  oscillator.connect(gain).connect(context.destination);
  oscillator.onended = () => {
    oscillator.disconnect();
    gain.disconnect();
  };
  oscillator.start(begin);
  oscillator.stop(end + 0.02);
}

/** The page's one player; without WebAudio it stays silent. */
const player = new SoundPlayer(() => {
  if (typeof AudioContext === 'undefined') throw new Error('no WebAudio');
  return new AudioContext();
});

/** Plays a sound if the settings allow it. Never throws: a missing sound is not an error. */
export function playSound(kind: SoundKind, settings: SoundSettings = readSoundSettings()): void {
  if (!isSoundAllowed(settings, kind)) return;
  player.play(TONES[kind], settings.volume);
}
