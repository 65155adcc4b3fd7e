/**
 * The admin lockout as the client sees it (spec 001 §4, §8, §9): the server counts failures and
 * locks an address for five minutes after three; its 429 message says how many seconds remain.
 */

/** The seconds left of a lockout named in the server's message, or null when it names none. */
export function lockoutSecondsFromMessage(message: string): number | null {
  const match = /locked for (\d{1,7}) seconds?/i.exec(message);
  return match ? Number(match[1]) : null;
}

/** `4m 05s`, `59s`. */
export function formatRemaining(seconds: number): string {
  const whole = Math.max(0, Math.ceil(seconds));
  const minutes = Math.floor(whole / 60);
  const rest = whole % 60;
  return minutes > 0 ? `${minutes}m ${String(rest).padStart(2, '0')}s` : `${rest}s`;
}

/** `MM:SS` of what is left of an admin session at `now`. */
export function formatSessionLeft(expiresAt: number, now: number): string {
  const seconds = Math.max(0, Math.ceil((expiresAt - now) / 1000));
  return `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}
