/**
 * An image message's life on screen (spec 000 §4 "Image"): live until the message expires or the
 * image fails to load, then IMAGE DESTROYED, and 30 s later the image leaves the row. The
 * countdown reads mm:ss.
 */

/** How long IMAGE DESTROYED stays before the image leaves the row (spec 000 §4). */
export const DESTROYED_IMAGE_DISPLAY_MS = 30_000;

export type ImagePhase = 'live' | 'destroyed' | 'removed';

/**
 * The phase at `now`. `failedAtMs` is when loading failed (a 404 or an undecodable image), or
 * null; whichever comes first, the failure or the expiry, starts the 30 s.
 */
export function imagePhase(options: {
  now: number;
  expiresAtMs: number;
  failedAtMs: number | null;
}): ImagePhase {
  const destroyedAt = Math.min(options.expiresAtMs, options.failedAtMs ?? Infinity);
  if (options.now < destroyedAt) return 'live';
  return options.now - destroyedAt >= DESTROYED_IMAGE_DISPLAY_MS ? 'removed' : 'destroyed';
}

/**
 * Time left as `mm:ss`, whole seconds rounded up (so it reads 00:00 only when time is really up)
 * and never below zero. Minutes keep counting past 59 (`75:00`); images never live that long.
 */
export function formatImageCountdown(msLeft: number): string {
  const total = Math.max(0, Math.ceil(msLeft / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
}
