import { describe, expect, it } from 'vitest';
import {
  ROOM_CREATE_TIMER_OPTIONS,
  ROOM_MANUAL_TIMER_OPTIONS,
} from '../../../../shared/constants.js';
import {
  NO_TIMER_VALUE,
  timerFromFormValue,
  timerOptionLabel,
  timerToFormValue,
  timerUpdatedDescription,
} from '../../../../client/features/rooms/timer-options.js';

describe('timerOptionLabel (spec 000 §9 timer options)', () => {
  it('labels every creation option, with 0.5 shown as 30 seconds', () => {
    expect(ROOM_CREATE_TIMER_OPTIONS.map(timerOptionLabel)).toEqual([
      'NONE',
      '30 SECONDS',
      '1 MINUTE',
      '15 MINUTES',
      '30 MINUTES',
      '1 HOUR',
      '3 HOURS',
      '6 HOURS',
      '12 HOURS',
      '24 HOURS',
    ]);
  });

  it('labels the manual options, including 5 minutes', () => {
    expect(ROOM_MANUAL_TIMER_OPTIONS.map(timerOptionLabel)).toContain('5 MINUTES');
    expect(new Set(ROOM_MANUAL_TIMER_OPTIONS.map(timerOptionLabel)).size).toBe(
      ROOM_MANUAL_TIMER_OPTIONS.length,
    );
  });

  it('keeps minutes that are not whole hours in minutes', () => {
    expect(timerOptionLabel(90)).toBe('90 MINUTES');
  });
});

describe('timer form values', () => {
  it('round-trips every option through its form value', () => {
    for (const minutes of ROOM_MANUAL_TIMER_OPTIONS) {
      expect(timerFromFormValue(timerToFormValue(minutes), ROOM_MANUAL_TIMER_OPTIONS)).toBe(
        minutes,
      );
    }
    expect(timerToFormValue(null)).toBe(NO_TIMER_VALUE);
  });

  it('refuses a value that is not one of the options', () => {
    expect(timerFromFormValue('5', ROOM_CREATE_TIMER_OPTIONS)).toBeNull();
    expect(timerFromFormValue('abc', ROOM_MANUAL_TIMER_OPTIONS)).toBeNull();
    expect(timerFromFormValue('-1', ROOM_MANUAL_TIMER_OPTIONS)).toBeNull();
  });
});

describe('timerUpdatedDescription (spec 000 §8 "Self-Destruct Timer Updated")', () => {
  it('says auto-destruct in N minutes, or disabled', () => {
    expect(timerUpdatedDescription(5)).toBe('Auto-destruct in 5 minutes');
    expect(timerUpdatedDescription(1)).toBe('Auto-destruct in 1 minute');
    expect(timerUpdatedDescription(0.5)).toBe('Auto-destruct in 30 seconds');
    expect(timerUpdatedDescription(null)).toBe('Self-destruct disabled');
  });
});
