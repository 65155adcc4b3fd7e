import { describe, expect, it } from 'vitest';
import {
  DESTROYED_IMAGE_DISPLAY_MS,
  formatImageCountdown,
  imagePhase,
} from '../../../../client/features/images/image-lifetime.js';

describe('formatImageCountdown (spec 000 §4 "Image": countdown mm:ss)', () => {
  it('shows minutes and seconds with two digits each', () => {
    expect(formatImageCountdown(30_000)).toBe('00:30');
    expect(formatImageCountdown(9_000)).toBe('00:09');
    expect(formatImageCountdown(65_000)).toBe('01:05');
    expect(formatImageCountdown(10 * 60_000)).toBe('10:00');
  });

  it('rounds a partial second up, so 00:00 appears only when time is up', () => {
    expect(formatImageCountdown(29_001)).toBe('00:30');
    expect(formatImageCountdown(1)).toBe('00:01');
    expect(formatImageCountdown(0)).toBe('00:00');
  });

  it('never counts below zero', () => {
    expect(formatImageCountdown(-5_000)).toBe('00:00');
  });
});

describe('imagePhase (spec 000 §4 "Image": destroyed at expiry or on load error, gone 30 s later)', () => {
  const expiresAtMs = 100_000;

  it('is live before the message expires', () => {
    expect(imagePhase({ now: 99_999, expiresAtMs, failedAtMs: null })).toBe('live');
  });

  it('is destroyed from the moment of expiry for 30 s, then removed', () => {
    expect(imagePhase({ now: expiresAtMs, expiresAtMs, failedAtMs: null })).toBe('destroyed');
    expect(
      imagePhase({
        now: expiresAtMs + DESTROYED_IMAGE_DISPLAY_MS - 1,
        expiresAtMs,
        failedAtMs: null,
      }),
    ).toBe('destroyed');
    expect(
      imagePhase({ now: expiresAtMs + DESTROYED_IMAGE_DISPLAY_MS, expiresAtMs, failedAtMs: null }),
    ).toBe('removed');
  });

  it('counts the 30 s from a load error that comes before the expiry', () => {
    const failedAtMs = 50_000;
    expect(imagePhase({ now: failedAtMs, expiresAtMs, failedAtMs })).toBe('destroyed');
    expect(imagePhase({ now: failedAtMs + 29_999, expiresAtMs, failedAtMs })).toBe('destroyed');
    expect(imagePhase({ now: failedAtMs + 30_000, expiresAtMs, failedAtMs })).toBe('removed');
  });

  it('ignores a load error reported after the expiry', () => {
    expect(
      imagePhase({ now: expiresAtMs + 30_000, expiresAtMs, failedAtMs: expiresAtMs + 20_000 }),
    ).toBe('removed');
  });
});
