/** The auto-delete timer choices of direct messages (spec 001 §9) with their labels. */
import { DM_DEFAULT_TIMER_SECONDS, DM_TIMER_OPTIONS_SECONDS } from '../../../shared/constants.js';

export type DmTimerSeconds = (typeof DM_TIMER_OPTIONS_SECONDS)[number];

export const DEFAULT_DM_TIMER: DmTimerSeconds = DM_DEFAULT_TIMER_SECONDS;

const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'}`;

/** '10 seconds (demo)', '30 seconds', '1 minute', '5 minutes', '1 hour', '24 hours'. */
export function timerLabel(seconds: number): string {
  if (seconds === 10) return '10 seconds (demo)';
  if (seconds < 60) return plural(seconds, 'second');
  if (seconds < 3600) return plural(Math.round(seconds / 60), 'minute');
  return plural(Math.round(seconds / 3600), 'hour');
}

/** Every choice, in the spec's order, for a select. */
export const DM_TIMER_CHOICES: readonly { value: DmTimerSeconds; label: string }[] =
  DM_TIMER_OPTIONS_SECONDS.map((value) => ({ value, label: timerLabel(value) }));

/** The choice a select's string value names; the default for anything else. */
export function parseTimerChoice(value: string): DmTimerSeconds {
  const seconds = Number(value);
  return DM_TIMER_OPTIONS_SECONDS.find((option) => option === seconds) ?? DEFAULT_DM_TIMER;
}
