import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTooltipSkipDelay } from '../../../../client/ui/tooltip-skip-delay.js';

describe('tooltip skip delay (spec 000 §9: 300 ms)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts with the delay, skips it while a tooltip is open and for 300 ms after it closed', () => {
    const skip = createTooltipSkipDelay(300);
    expect(skip.isSkipped()).toBe(false);
    skip.opened();
    expect(skip.isSkipped()).toBe(true);
    skip.closed();
    vi.advanceTimersByTime(299);
    expect(skip.isSkipped()).toBe(true);
    vi.advanceTimersByTime(1);
    expect(skip.isSkipped()).toBe(false);
  });

  it('keeps skipping while another tooltip opens within the window or is still open', () => {
    const skip = createTooltipSkipDelay(300);
    skip.opened();
    skip.closed();
    vi.advanceTimersByTime(200);
    skip.opened();
    vi.advanceTimersByTime(500);
    expect(skip.isSkipped()).toBe(true);
    skip.opened();
    skip.closed();
    vi.advanceTimersByTime(500);
    expect(skip.isSkipped()).toBe(true);
    skip.closed();
    vi.advanceTimersByTime(300);
    expect(skip.isSkipped()).toBe(false);
  });

  it('tells its subscribers each time the state changes, and no more', () => {
    const skip = createTooltipSkipDelay(300);
    const listener = vi.fn();
    const unsubscribe = skip.subscribe(listener);
    skip.opened();
    skip.opened();
    skip.closed();
    skip.closed();
    vi.advanceTimersByTime(300);
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    skip.opened();
    expect(listener).toHaveBeenCalledTimes(2);
  });
});
