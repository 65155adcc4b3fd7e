/**
 * The key-frame outbox stays under the relay's flood limit (20 frames/s, bursts of 40) and keeps
 * the frames in order, so a rotation in a large room cannot get the member's socket closed.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FrameOutbox, KEY_FRAME_BURST } from '../../../../client/features/e2ee/frame-outbox.js';

describe('FrameOutbox', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends a burst at once, paces the rest at 10 a second, in order, then reports idle', () => {
    vi.useFakeTimers();
    let clock = 0;
    const sent: number[] = [];
    let idleCalls = 0;
    const outbox = new FrameOutbox(
      () => (idleCalls += 1),
      10,
      KEY_FRAME_BURST,
      () => clock,
    );
    for (let index = 0; index < 50; index++) outbox.push(() => (sent.push(index), true));
    expect(sent).toHaveLength(KEY_FRAME_BURST);
    expect(outbox.isIdle).toBe(false);
    for (let step = 0; step < 30; step++) {
      clock += 100;
      vi.advanceTimersByTime(100);
    }
    expect(sent).toEqual([...Array(50).keys()]);
    expect(outbox.isIdle).toBe(true);
    expect(idleCalls).toBeGreaterThan(0);
    // Never more than the burst plus 10 a second over the 3 seconds it took: under the relay's 20/s.
    expect(sent.length).toBeLessThanOrEqual(KEY_FRAME_BURST + 3 * 10);
  });

  it('drops what is queued when cleared', () => {
    vi.useFakeTimers();
    const sent: number[] = [];
    const outbox = new FrameOutbox(
      () => undefined,
      10,
      2,
      () => 0,
    );
    for (let index = 0; index < 5; index++) outbox.push(() => (sent.push(index), true));
    outbox.clear();
    vi.advanceTimersByTime(5000);
    expect(sent).toEqual([0, 1]);
    expect(outbox.isIdle).toBe(true);
  });
});
