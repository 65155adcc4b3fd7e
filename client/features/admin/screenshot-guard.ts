/**
 * Screenshot-attempt detection (spec 000 §7 `security_alert {alertType screenshot_attempt,
 * method, timestamp}`). A browser cannot see a screenshot being taken; it can only notice the
 * keys people press for one. These are heuristics on key presses only: no visibilitychange or
 * blur guessing, which would flag every tab switch. Pure, so the rules are unit-tested.
 */
import { type ScreenshotMethod } from '../../../shared/protocol/ws/security.js';

/** One alert per this many ms at most, as the server allows (server/features/abuse). */
export const SCREENSHOT_ALERT_INTERVAL_MS = 10_000;

/** The parts of a KeyboardEvent the rules read. */
export interface KeyPress {
  key: string;
  code: string;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

const SHORTCUT_CODES: Record<string, '3' | '4' | '5' | 's'> = {
  Digit3: '3',
  Digit4: '4',
  Digit5: '5',
  KeyS: 's',
};

/**
 * The screenshot method a key press suggests, or null:
 * - `print_screen`: the PrintScreen key (with any modifier);
 * - `cmd_shift_3|4|5|s` (macOS capture and Windows' Win+Shift+S snipping report `metaKey`),
 * - `ctrl_shift_3|4|5|s` (browser and Linux capture shortcuts).
 * Letters and digits are read from `code`, since Shift changes `key` ('#' for 3 on US layouts).
 */
export function screenshotMethod(press: KeyPress): ScreenshotMethod | null {
  if (press.key === 'PrintScreen' || press.code === 'PrintScreen') return 'print_screen';
  if (!press.shiftKey || press.altKey) return null;
  const suffix = SHORTCUT_CODES[press.code];
  if (suffix === undefined) return null;
  if (press.metaKey) return `cmd_shift_${suffix}`;
  if (press.ctrlKey) return `ctrl_shift_${suffix}`;
  return null;
}

/** A gate that opens at most once per `intervalMs`; call it with the current time. */
export function createAlertThrottle(
  intervalMs: number = SCREENSHOT_ALERT_INTERVAL_MS,
): (now: number) => boolean {
  let last = -Infinity;
  return (now) => {
    if (now - last < intervalMs) return false;
    last = now;
    return true;
  };
}
