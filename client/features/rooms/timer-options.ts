/**
 * Self-destruct timer values (spec 000 §3, §9): minutes, fractional (0.5 = 30 s), or null for
 * none. Labels and the select/radio encoding shared by the create and timer dialogs.
 */

/** A timer as the room carries it: minutes, or null for none. */
export type TimerMinutes = number | null;

/** The form value of "no timer"; every other option is its number of minutes as text. */
export const NO_TIMER_VALUE = 'none';

/** Upper-case label of one option: NONE, 30 SECONDS, 1 MINUTE, 15 MINUTES, 3 HOURS, 24 HOURS. */
export function timerOptionLabel(minutes: TimerMinutes): string {
  if (minutes === null) return 'NONE';
  if (minutes < 1) {
    const seconds = Math.round(minutes * 60);
    return `${seconds} SECOND${seconds === 1 ? '' : 'S'}`;
  }
  if (minutes >= 60 && minutes % 60 === 0) {
    const hours = minutes / 60;
    return `${hours} HOUR${hours === 1 ? '' : 'S'}`;
  }
  return `${minutes} MINUTE${minutes === 1 ? '' : 'S'}`;
}

/** The form value of a timer. */
export function timerToFormValue(minutes: TimerMinutes): string {
  return minutes === null ? NO_TIMER_VALUE : String(minutes);
}

/** A form value back to a timer; anything that is not one of `options` gives null. */
export function timerFromFormValue(value: string, options: readonly TimerMinutes[]): TimerMinutes {
  if (value === NO_TIMER_VALUE) return null;
  const minutes = Number(value);
  return options.includes(minutes) ? minutes : null;
}

/** Description of the 'Self-Destruct Timer Updated' toast (spec 000 §8). */
export function timerUpdatedDescription(minutes: TimerMinutes): string {
  if (minutes === null) return 'Self-destruct disabled';
  if (minutes < 1) return `Auto-destruct in ${Math.round(minutes * 60)} seconds`;
  return `Auto-destruct in ${minutes} minute${minutes === 1 ? '' : 's'}`;
}
