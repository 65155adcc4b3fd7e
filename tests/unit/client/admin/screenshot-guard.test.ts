/** Screenshot-attempt heuristics (spec 000 §7 security_alert): keys only, one alert per 10 s. */
import { describe, expect, it } from 'vitest';
import {
  SCREENSHOT_ALERT_INTERVAL_MS,
  createAlertThrottle,
  screenshotMethod,
  type KeyPress,
} from '../../../../client/features/admin/screenshot-guard.js';

const press = (overrides: Partial<KeyPress>): KeyPress => ({
  key: '',
  code: '',
  metaKey: false,
  ctrlKey: false,
  shiftKey: false,
  altKey: false,
  ...overrides,
});

describe('screenshotMethod', () => {
  it('spots PrintScreen with or without modifiers', () => {
    expect(screenshotMethod(press({ key: 'PrintScreen', code: 'PrintScreen' }))).toBe(
      'print_screen',
    );
    expect(screenshotMethod(press({ key: 'PrintScreen', altKey: true }))).toBe('print_screen');
  });

  it('spots Cmd+Shift+3/4/5/S and Ctrl+Shift+3/4/5/S by key code, whatever Shift makes of the key', () => {
    expect(
      screenshotMethod(press({ key: '#', code: 'Digit3', metaKey: true, shiftKey: true })),
    ).toBe('cmd_shift_3');
    expect(
      screenshotMethod(press({ key: '$', code: 'Digit4', metaKey: true, shiftKey: true })),
    ).toBe('cmd_shift_4');
    expect(
      screenshotMethod(press({ key: '%', code: 'Digit5', ctrlKey: true, shiftKey: true })),
    ).toBe('ctrl_shift_5');
    expect(screenshotMethod(press({ key: 'S', code: 'KeyS', metaKey: true, shiftKey: true }))).toBe(
      'cmd_shift_s',
    );
    expect(screenshotMethod(press({ key: 'S', code: 'KeyS', ctrlKey: true, shiftKey: true }))).toBe(
      'ctrl_shift_s',
    );
  });

  it('ignores ordinary typing and near-miss shortcuts', () => {
    expect(screenshotMethod(press({ key: '3', code: 'Digit3' }))).toBeNull();
    expect(screenshotMethod(press({ key: '#', code: 'Digit3', shiftKey: true }))).toBeNull();
    expect(screenshotMethod(press({ key: '3', code: 'Digit3', metaKey: true }))).toBeNull();
    expect(screenshotMethod(press({ key: 's', code: 'KeyS', ctrlKey: true }))).toBeNull();
    expect(
      screenshotMethod(press({ key: '6', code: 'Digit6', metaKey: true, shiftKey: true })),
    ).toBeNull();
    expect(
      screenshotMethod(press({ code: 'Digit3', metaKey: true, shiftKey: true, altKey: true })),
    ).toBeNull();
  });
});

describe('createAlertThrottle', () => {
  it('lets one alert through per ten seconds', () => {
    const isAllowed = createAlertThrottle();
    expect(isAllowed(1_000)).toBe(true);
    expect(isAllowed(1_001)).toBe(false);
    expect(isAllowed(1_000 + SCREENSHOT_ALERT_INTERVAL_MS - 1)).toBe(false);
    expect(isAllowed(1_000 + SCREENSHOT_ALERT_INTERVAL_MS)).toBe(true);
  });
});
