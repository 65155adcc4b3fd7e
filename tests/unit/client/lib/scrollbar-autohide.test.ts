/** Scrollbars hide 600 ms after the last scroll (spec 000 §9 "Scrollbar hide delay 600 ms"). */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createScrollMarker,
  SCROLLING_ATTRIBUTE,
  type ScrollMarkTarget,
} from '../../../../client/lib/scrollbar-autohide.js';

function target(): ScrollMarkTarget & { attributes: Map<string, string> } {
  const attributes = new Map<string, string>();
  return {
    attributes,
    setAttribute: (name, value) => attributes.set(name, value),
    removeAttribute: (name) => attributes.delete(name),
  };
}

describe('createScrollMarker', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the scrollbar while scrolling and hides it 600 ms after the last scroll', () => {
    const mark = createScrollMarker();
    const list = target();
    mark(list);
    expect(list.attributes.get(SCROLLING_ATTRIBUTE)).toBe('true');
    vi.advanceTimersByTime(500);
    mark(list);
    vi.advanceTimersByTime(599);
    expect(list.attributes.has(SCROLLING_ATTRIBUTE)).toBe(true);
    vi.advanceTimersByTime(1);
    expect(list.attributes.has(SCROLLING_ATTRIBUTE)).toBe(false);
  });

  it('times each scrolled element on its own', () => {
    const mark = createScrollMarker();
    const [list, panel] = [target(), target()];
    mark(list);
    vi.advanceTimersByTime(400);
    mark(panel);
    vi.advanceTimersByTime(200);
    expect(list.attributes.has(SCROLLING_ATTRIBUTE)).toBe(false);
    expect(panel.attributes.has(SCROLLING_ATTRIBUTE)).toBe(true);
  });
});
