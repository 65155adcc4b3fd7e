/** What the call window shows, as pure functions (tested in tests/unit/voice-call-format.test.ts). */
import { VOICE_PARTICIPANTS_SHOWN } from './voice-constants.js';

/** mm:ss of a duration in ms (minutes keep counting past 59). */
export function formatCallDuration(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const minutes = Math.floor(seconds / 60);
  return `${String(minutes).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The first three names and how many more there are (spec 000 §9). */
export function participantSummary<T>(names: readonly T[]): { shown: T[]; more: number } {
  return {
    shown: names.slice(0, VOICE_PARTICIPANTS_SHOWN),
    more: Math.max(0, names.length - VOICE_PARTICIPANTS_SHOWN),
  };
}

/**
 * The participants in the window's order: whoever speaks first (so a speaker beyond the first
 * three is still seen), then the roster's order.
 */
export function speakersFirst<T extends { nodeId: string }>(
  participants: readonly T[],
  speaking: readonly string[],
): T[] {
  const isSpeaking = (participant: T) => speaking.includes(participant.nodeId);
  return [...participants.filter(isSpeaking), ...participants.filter((p) => !isSpeaking(p))];
}
