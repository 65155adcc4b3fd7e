/**
 * The room's auto-destruct countdown (spec 000 §4, spec 001 §2): yellow above 15 minutes, orange
 * under 15, red (critical) under 5; at zero the channel is gone and the page reloads.
 */
import { COUNTDOWN_CRITICAL_MINUTES, COUNTDOWN_ORANGE_MINUTES } from '../../../shared/constants.js';

/** warning = yellow, alert = orange, critical = red, expired = the countdown reached zero. */
export type CountdownTone = 'warning' | 'alert' | 'critical' | 'expired';

const MINUTE_MS = 60_000;

/** Milliseconds left until `destructionAt` (ISO time) at `now`, never below zero. */
export function remainingMs(destructionAt: string, now: number): number {
  const target = Date.parse(destructionAt);
  if (Number.isNaN(target)) return 0;
  return Math.max(0, target - now);
}

/** Whole seconds left, rounded up, so the display reaches 0s only when time is really up. */
function wholeSeconds(msLeft: number): number {
  return Math.max(0, Math.ceil(msLeft / 1000));
}

/**
 * The banner's tone for the time left. "Under 15 minutes" and "under 5 minutes" are strict:
 * exactly 15:00 is still yellow and exactly 5:00 still orange. The tone follows the whole seconds
 * on display, so the banner never reads 5m 00s in red.
 */
export function countdownTone(msLeft: number): CountdownTone {
  const seconds = wholeSeconds(msLeft);
  if (seconds <= 0) return 'expired';
  if (seconds < (COUNTDOWN_CRITICAL_MINUTES * MINUTE_MS) / 1000) return 'critical';
  if (seconds < (COUNTDOWN_ORANGE_MINUTES * MINUTE_MS) / 1000) return 'alert';
  return 'warning';
}

/** Theme classes of each tone: text, border and a faint background tint. */
export const COUNTDOWN_TONE_CLASSES: Record<CountdownTone, string> = {
  warning: 'text-warning border-warning/60 bg-warning/10',
  alert: 'text-orange border-orange/60 bg-orange/10',
  critical: 'text-danger border-danger bg-danger/15',
  expired: 'text-danger border-danger bg-danger/25',
};

/** Time left as `1h 02m 03s`, or `14m 59s` under an hour. */
export function formatCountdown(msLeft: number): string {
  const total = wholeSeconds(msLeft);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const mm = String(minutes).padStart(2, '0');
  const ss = String(seconds).padStart(2, '0');
  return hours > 0 ? `${hours}h ${mm}m ${ss}s` : `${minutes}m ${ss}s`;
}

/** Time left in words for assistive technology: "1 hour 2 minutes 3 seconds". */
export function describeCountdown(msLeft: number): string {
  const total = wholeSeconds(msLeft);
  const parts: [number, string][] = [
    [Math.floor(total / 3600), 'hour'],
    [Math.floor((total % 3600) / 60), 'minute'],
    [total % 60, 'second'],
  ];
  const words = parts
    .filter(([value]) => value > 0)
    .map(([value, unit]) => `${value} ${unit}${value === 1 ? '' : 's'}`);
  return words.length > 0 ? words.join(' ') : '0 seconds';
}

/** What the polite live region says when the tone changes (never every second). */
export function countdownAnnouncement(tone: CountdownTone): string {
  switch (tone) {
    case 'warning':
      return 'Channel self-destruct timer is running.';
    case 'alert':
      return `Warning: less than ${COUNTDOWN_ORANGE_MINUTES} minutes before this channel self-destructs.`;
    case 'critical':
      return `Critical: less than ${COUNTDOWN_CRITICAL_MINUTES} minutes before this channel self-destructs.`;
    case 'expired':
      return 'Channel self-destructed. Reloading.';
  }
}
