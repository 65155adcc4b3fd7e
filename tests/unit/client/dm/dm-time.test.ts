import { describe, expect, it } from 'vitest';
import {
  formatListTime,
  formatMessageCountdown,
  formatMessageTime,
  formatThreadCountdown,
  isCountdownCritical,
  isNearExpiry,
  messageExpiry,
  remainingMs,
} from '../../../../client/features/dm/dm-time.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe("list and message times (spec 001 §2: 'MMM dd, HH:mm', HH:mm:ss)", () => {
  it('shows the list time as MMM dd, HH:mm in local time, zero-padded', () => {
    expect(formatListTime(new Date(2025, 0, 5, 9, 7, 3))).toBe('Jan 05, 09:07');
    expect(formatListTime(new Date(2024, 11, 31, 23, 59, 59))).toBe('Dec 31, 23:59');
    expect(formatListTime(new Date(2025, 4, 17, 0, 0).toISOString())).toBe('May 17, 00:00');
  });

  it('shows a message time as HH:mm:ss on a 24-hour clock', () => {
    expect(formatMessageTime(new Date(2025, 0, 5, 9, 7, 3))).toBe('09:07:03');
    expect(formatMessageTime(new Date(2025, 0, 5, 21, 0, 0).toISOString())).toBe('21:00:00');
  });

  it('shows placeholders rather than NaN for a time that does not parse', () => {
    expect(formatListTime('not a date')).toBe('--- --, --:--');
    expect(formatMessageTime('not a date')).toBe('--:--:--');
  });
});

describe('thread countdown (spec 001 §2: h m s)', () => {
  it('always shows hours, minutes and seconds', () => {
    expect(formatThreadCountdown(DAY)).toBe('24h 00m 00s');
    expect(formatThreadCountdown(23 * HOUR + 59 * MINUTE + 7 * SECOND)).toBe('23h 59m 07s');
    expect(formatThreadCountdown(5 * MINUTE)).toBe('0h 05m 00s');
    expect(formatThreadCountdown(0)).toBe('0h 00m 00s');
  });

  it('rounds up, so it reads 0 only when time is really up', () => {
    expect(formatThreadCountdown(1)).toBe('0h 00m 01s');
  });
});

describe('message countdown (spec 001 §4: d/h, h/m, m/s or s)', () => {
  it('shows days and hours from one day up', () => {
    expect(formatMessageCountdown(DAY)).toBe('1d 0h');
    expect(formatMessageCountdown(DAY + 3 * HOUR + 20 * MINUTE)).toBe('1d 3h');
  });

  it('shows hours and minutes from one hour up', () => {
    expect(formatMessageCountdown(DAY - SECOND)).toBe('23h 59m');
    expect(formatMessageCountdown(2 * HOUR + 5 * MINUTE)).toBe('2h 5m');
    expect(formatMessageCountdown(HOUR)).toBe('1h 0m');
  });

  it('shows minutes and seconds from one minute up', () => {
    expect(formatMessageCountdown(HOUR - SECOND)).toBe('59m 59s');
    expect(formatMessageCountdown(4 * MINUTE + 10 * SECOND)).toBe('4m 10s');
    expect(formatMessageCountdown(MINUTE)).toBe('1m 0s');
  });

  it('shows seconds alone under a minute', () => {
    expect(formatMessageCountdown(MINUTE - SECOND)).toBe('59s');
    expect(formatMessageCountdown(42 * SECOND)).toBe('42s');
    expect(formatMessageCountdown(1)).toBe('1s');
    expect(formatMessageCountdown(0)).toBe('0s');
  });
});

describe('countdown colour and near-expiry flag (spec 001 §4, §9)', () => {
  it('turns red under 60 s, judged on the seconds shown', () => {
    expect(isCountdownCritical(MINUTE + SECOND)).toBe(false);
    expect(isCountdownCritical(MINUTE)).toBe(false);
    expect(isCountdownCritical(MINUTE - 500)).toBe(false);
    expect(isCountdownCritical(MINUTE - SECOND)).toBe(true);
    expect(isCountdownCritical(SECOND)).toBe(true);
  });

  it('flags a message as about to expire at 2 s or less, until it is gone', () => {
    expect(isNearExpiry(2 * SECOND + 1)).toBe(false);
    expect(isNearExpiry(2 * SECOND)).toBe(true);
    expect(isNearExpiry(1)).toBe(true);
    expect(isNearExpiry(0)).toBe(false);
  });

  it('counts the time left down to zero and never below', () => {
    const now = Date.parse('2025-01-01T00:00:00.000Z');
    expect(remainingMs('2025-01-01T00:00:10.000Z', now)).toBe(10 * SECOND);
    expect(remainingMs('2024-12-31T23:59:59.000Z', now)).toBe(0);
    expect(remainingMs('garbage', now)).toBe(0);
  });

  it('puts a message expiry at now plus the chosen seconds, as an ISO time', () => {
    const now = Date.parse('2025-01-01T00:00:00.000Z');
    expect(messageExpiry(now, 86_400)).toBe('2025-01-02T00:00:00.000Z');
    expect(messageExpiry(now, 10)).toBe('2025-01-01T00:00:10.000Z');
  });
});
