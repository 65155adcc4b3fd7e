import { describe, expect, it } from 'vitest';
import {
  COUNTDOWN_TONE_CLASSES,
  countdownAnnouncement,
  countdownTone,
  describeCountdown,
  formatCountdown,
  remainingMs,
} from '../../../../client/features/rooms/countdown.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

describe('countdownTone (spec 000 §4, spec 001 §2 "Countdown banner")', () => {
  it('is yellow (warning) above 15 minutes and at exactly 15:00', () => {
    expect(countdownTone(3 * 60 * MINUTE)).toBe('warning');
    expect(countdownTone(15 * MINUTE + 1)).toBe('warning');
    expect(countdownTone(15 * MINUTE)).toBe('warning');
  });

  it('turns orange (alert) under 15 minutes and stays orange at exactly 5:00', () => {
    expect(countdownTone(15 * MINUTE - SECOND)).toBe('alert');
    expect(countdownTone(10 * MINUTE)).toBe('alert');
    expect(countdownTone(5 * MINUTE)).toBe('alert');
  });

  it('turns red (critical) under 5 minutes', () => {
    expect(countdownTone(5 * MINUTE - SECOND)).toBe('critical');
    expect(countdownTone(SECOND)).toBe('critical');
    expect(countdownTone(1)).toBe('critical');
  });

  it('follows the seconds on display: 4:59.5 reads 5m 00s and is still orange', () => {
    expect(formatCountdown(5 * MINUTE - 500)).toBe('5m 00s');
    expect(countdownTone(5 * MINUTE - 500)).toBe('alert');
    expect(formatCountdown(15 * MINUTE - 500)).toBe('15m 00s');
    expect(countdownTone(15 * MINUTE - 500)).toBe('warning');
  });

  it('is expired at zero', () => {
    expect(countdownTone(0)).toBe('expired');
  });

  it('maps each tone to its theme colour classes', () => {
    expect(COUNTDOWN_TONE_CLASSES.warning).toContain('text-warning');
    expect(COUNTDOWN_TONE_CLASSES.alert).toContain('text-orange');
    expect(COUNTDOWN_TONE_CLASSES.critical).toContain('text-danger');
    expect(COUNTDOWN_TONE_CLASSES.expired).toContain('text-danger');
    for (const classes of Object.values(COUNTDOWN_TONE_CLASSES)) {
      expect(classes).toMatch(/\bborder-/);
      expect(classes).toMatch(/\bbg-/);
    }
  });
});

describe('remainingMs', () => {
  const at = '2030-01-01T00:10:00.000Z';
  const now = Date.parse('2030-01-01T00:00:00.000Z');

  it('counts down to the destruction time', () => {
    expect(remainingMs(at, now)).toBe(10 * MINUTE);
  });

  it('never goes below zero once the time has passed', () => {
    expect(remainingMs(at, now + 20 * MINUTE)).toBe(0);
  });

  it('treats an unparseable time as expired', () => {
    expect(remainingMs('not a date', now)).toBe(0);
  });
});

describe('formatCountdown', () => {
  it('shows minutes and seconds under an hour', () => {
    expect(formatCountdown(14 * MINUTE + 59 * SECOND)).toBe('14m 59s');
    expect(formatCountdown(5 * SECOND)).toBe('0m 05s');
  });

  it('shows hours, minutes and seconds from an hour up', () => {
    expect(formatCountdown(60 * MINUTE)).toBe('1h 00m 00s');
    expect(formatCountdown(24 * 60 * MINUTE - SECOND)).toBe('23h 59m 59s');
    expect(formatCountdown(62 * MINUTE + 3 * SECOND)).toBe('1h 02m 03s');
  });

  it('rounds partial seconds up, so 0s appears only when time is really up', () => {
    expect(formatCountdown(400)).toBe('0m 01s');
    expect(formatCountdown(5 * MINUTE - 1)).toBe('5m 00s');
    expect(formatCountdown(0)).toBe('0m 00s');
  });
});

describe('describeCountdown and countdownAnnouncement (assistive technology)', () => {
  it('spells the time out in words', () => {
    expect(describeCountdown(62 * MINUTE + 3 * SECOND)).toBe('1 hour 2 minutes 3 seconds');
    expect(describeCountdown(MINUTE)).toBe('1 minute');
    expect(describeCountdown(0)).toBe('0 seconds');
  });

  it('announces each tone with its threshold', () => {
    expect(countdownAnnouncement('alert')).toContain('less than 15 minutes');
    expect(countdownAnnouncement('critical')).toContain('less than 5 minutes');
    expect(countdownAnnouncement('expired')).toContain('Reloading');
  });
});
