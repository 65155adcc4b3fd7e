import { describe, expect, it } from 'vitest';
import { DueSweep } from '../../../server/lib/due-sweep.js';

function harness(fullCheckMs = 60_000) {
  const clock = { now: 1_000_000 };
  const calls: number[] = [];
  const state = {
    earliest: null as number | null,
    fail: false,
    gate: null as Promise<void> | null,
  };
  const sweep = new DueSweep({
    now: () => clock.now,
    fullCheckMs,
    sweep: async (now) => {
      calls.push(now);
      if (state.gate) await state.gate;
      if (state.fail) throw new Error('database down');
      return state.earliest;
    },
  });
  return { clock, calls, state, sweep };
}

/** Holds the next sweeps until the returned function is called. */
function closeGate(state: { gate: Promise<void> | null }): () => void {
  let open = () => {};
  state.gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  return () => open();
}

describe('DueSweep', () => {
  it('sweeps on the first tick, then not again while nothing is due', async () => {
    const { clock, calls, sweep } = harness();
    await sweep.tick();
    for (let i = 0; i < 30; i += 1) {
      clock.now += 1000;
      await sweep.tick();
    }
    expect(calls).toHaveLength(1);
  });

  it('sweeps once a noted due time has passed, not before', async () => {
    const { clock, calls, sweep } = harness();
    await sweep.tick();
    sweep.note(clock.now + 5000);
    clock.now += 4999;
    await sweep.tick();
    expect(calls).toHaveLength(1);
    clock.now += 1;
    await sweep.tick();
    expect(calls).toEqual([1_000_000, 1_005_000]);
  });

  it('wakes for the earliest time the sweep reports is left in the database', async () => {
    const { clock, calls, state, sweep } = harness();
    state.earliest = clock.now + 3000;
    await sweep.tick();
    clock.now += 2000;
    await sweep.tick();
    expect(calls).toHaveLength(1);
    clock.now += 1000;
    state.earliest = null;
    await sweep.tick();
    expect(calls).toHaveLength(2);
  });

  it('keeps a due time noted while a sweep is running', async () => {
    const { clock, calls, state, sweep } = harness();
    const open = closeGate(state);
    const running = sweep.tick();
    sweep.note(clock.now + 2000);
    open();
    await running;
    state.gate = null;
    clock.now += 2000;
    await sweep.tick();
    expect(calls).toHaveLength(2);
  });

  it('runs one sweep at a time: a tick during a sweep shares it', async () => {
    const { calls, state, sweep } = harness();
    const open = closeGate(state);
    const first = sweep.tick();
    const second = sweep.tick();
    open();
    await Promise.all([first, second]);
    expect(calls).toHaveLength(1);
  });

  it('checks the database anyway every fullCheckMs, for rows other processes wrote', async () => {
    const { clock, calls, sweep } = harness(10_000);
    await sweep.tick();
    clock.now += 9_999;
    await sweep.tick();
    expect(calls).toHaveLength(1);
    clock.now += 1;
    await sweep.tick();
    expect(calls).toHaveLength(2);
  });

  it('tries again on the next tick after a failed sweep', async () => {
    const { clock, calls, state, sweep } = harness();
    state.fail = true;
    await expect(sweep.tick()).rejects.toThrow('database down');
    state.fail = false;
    clock.now += 1000;
    await sweep.tick();
    clock.now += 1000;
    await sweep.tick();
    expect(calls).toHaveLength(2);
  });
});
