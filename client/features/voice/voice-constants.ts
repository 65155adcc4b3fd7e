/** Voice numbers of spec 000 §3 and §9, each with its reference. */

/** Voice test recording, 3 s (spec 000 §9). */
export const VOICE_TEST_RECORDING_MS = 3_000;
/** The key-rotation counter's period, and the frame key's rotation, 30 s (spec 000 §4, §9). */
export const VOICE_KEY_ROTATION_MS = 30_000;
/** Audio quality re-evaluation, every 2 s (spec 000 §4, §9). */
export const VOICE_QUALITY_PROBE_MS = 2_000;
/** Sample rate of the call's audio, 48 kHz (spec 000 §7, §9). */
export const VOICE_SAMPLE_RATE = 48_000;
/**
 * Voice activity threshold, 30 (spec 000 §9), on the scale the browser's analyser gives: the mean
 * of `AnalyserNode.getByteFrequencyData` (each bin 0..255); above it, the participant is speaking.
 */
export const VOICE_ACTIVITY_THRESHOLD = 30;
/** How often the speaking indicators are measured, and how long one stays lit after the voice. */
export const VOICE_ACTIVITY_POLL_MS = 50;
export const VOICE_ACTIVITY_HOLD_MS = 400;
/** Audio buffer sizes, powers of two from 1024 to 16384 frames (spec 000 §9). */
export const VOICE_BUFFER_SIZES = [1024, 2048, 4096, 8192, 16384] as const;
export type VoiceBufferSize = (typeof VOICE_BUFFER_SIZES)[number];
/** The participant list shows the first 3 plus a count (spec 000 §9). */
export const VOICE_PARTICIPANTS_SHOWN = 3;
/** The call window's width, 448 px (spec 000 §2). */
export const VOICE_WINDOW_WIDTH_PX = 448;
/** How long a receiver keeps a sender's previous frame key after a newer one arrives. */
export const VOICE_PREVIOUS_KEY_GRACE_MS = 10_000;
/** Slider ranges (spec 000 §5). */
export const PITCH_RANGE = { min: -24, max: 24, step: 1 } as const;
export const FORMANT_RANGE = { min: -12, max: 12, step: 1 } as const;
export const VOLUME_RANGE = { min: 0, max: 1, step: 0.1 } as const;

/** The voice error texts of spec 000 §8, exactly. */
export const VOICE_TEXT = {
  microphoneDenied: 'Microphone access denied. Please allow microphone permissions.',
  startFailed: 'Failed to start voice call. Please check your microphone permissions.',
} as const;
