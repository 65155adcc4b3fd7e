import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DM_TIMER,
  DM_TIMER_CHOICES,
  parseTimerChoice,
  timerLabel,
} from '../../../../client/features/dm/timer-options.js';

describe('direct-message auto-delete timer (spec 001 §9)', () => {
  it('offers the spec options in order with readable labels', () => {
    expect(DM_TIMER_CHOICES).toEqual([
      { value: 10, label: '10 seconds (demo)' },
      { value: 30, label: '30 seconds' },
      { value: 60, label: '1 minute' },
      { value: 300, label: '5 minutes' },
      { value: 900, label: '15 minutes' },
      { value: 1800, label: '30 minutes' },
      { value: 3600, label: '1 hour' },
      { value: 7200, label: '2 hours' },
      { value: 21600, label: '6 hours' },
      { value: 43200, label: '12 hours' },
      { value: 86400, label: '24 hours' },
    ]);
  });

  it('defaults to 86400 seconds', () => {
    expect(DEFAULT_DM_TIMER).toBe(86_400);
    expect(timerLabel(DEFAULT_DM_TIMER)).toBe('24 hours');
  });

  it('reads a select value back, and falls back to the default for anything else', () => {
    expect(parseTimerChoice('300')).toBe(300);
    expect(parseTimerChoice('10')).toBe(10);
    expect(parseTimerChoice('11')).toBe(86_400);
    expect(parseTimerChoice('')).toBe(86_400);
  });
});
