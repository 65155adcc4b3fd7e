import { describe, expect, it } from 'vitest';
import { AdminLockout, MemoryLockoutStore } from '../../../server/features/admin/lockout.js';

function setup() {
  let now = 1_000_000;
  const lockout = new AdminLockout(new MemoryLockoutStore(), () => now);
  return { lockout, advance: (ms: number) => (now += ms) };
}

describe('admin lockout (spec 001 §4, §9)', () => {
  it('locks for five minutes after three failures', async () => {
    const { lockout, advance } = setup();
    expect(await lockout.recordFailure('ip')).toBe(0);
    expect(await lockout.recordFailure('ip')).toBe(0);
    expect(await lockout.recordFailure('ip')).toBe(300_000);
    expect(await lockout.lockedFor('ip')).toBe(300_000);
    advance(299_999);
    expect(await lockout.lockedFor('ip')).toBe(1);
    advance(1);
    expect(await lockout.lockedFor('ip')).toBe(0);
  });

  it('resets the counter after 60 s without attempts', async () => {
    const { lockout, advance } = setup();
    await lockout.recordFailure('ip');
    await lockout.recordFailure('ip');
    advance(60_000);
    expect(await lockout.recordFailure('ip')).toBe(0);
    expect(await lockout.recordFailure('ip')).toBe(0);
    expect(await lockout.recordFailure('ip')).toBe(300_000);
  });

  it('resets the counter on success', async () => {
    const { lockout } = setup();
    await lockout.recordFailure('ip');
    await lockout.recordFailure('ip');
    await lockout.recordSuccess('ip');
    expect(await lockout.recordFailure('ip')).toBe(0);
    expect(await lockout.lockedFor('ip')).toBe(0);
  });

  it('counts each client separately', async () => {
    const { lockout } = setup();
    for (let i = 0; i < 3; i += 1) await lockout.recordFailure('attacker');
    expect(await lockout.lockedFor('attacker')).toBeGreaterThan(0);
    expect(await lockout.lockedFor('operator')).toBe(0);
  });
});
