import { describe, expect, it } from 'vitest';
import {
  ADMIN_LOCKOUT_RULES,
  AdminLockout,
  MemoryLockoutStore,
} from '../../../server/features/admin/lockout.js';

function setup() {
  let now = 1_000_000;
  const lockout = new AdminLockout(new MemoryLockoutStore(), () => now);
  const wrong = () => lockout.guard('ip', async () => false);
  const right = () => lockout.guard('ip', async () => true);
  return { lockout, wrong, right, advance: (ms: number) => (now += ms) };
}

describe('admin lockout (spec 001 §4, §9; issue 15)', () => {
  it('locks for five minutes after three failures', async () => {
    const { wrong, right, advance } = setup();
    expect(await wrong()).toEqual({ kind: 'checked', succeeded: false, lockedMs: 0 });
    expect(await wrong()).toEqual({ kind: 'checked', succeeded: false, lockedMs: 0 });
    expect(await wrong()).toEqual({ kind: 'checked', succeeded: false, lockedMs: 300_000 });
    advance(299_999);
    expect(await right()).toEqual({ kind: 'locked', remainingMs: 1 });
    advance(1);
    expect(await right()).toEqual({ kind: 'checked', succeeded: true, lockedMs: 0 });
  });

  it('resets the counter after 60 s without attempts, and on success', async () => {
    const { wrong, right, advance } = setup();
    await wrong();
    await wrong();
    advance(60_000);
    expect((await wrong()).kind).toBe('checked');
    expect(await wrong()).toMatchObject({ lockedMs: 0 });
    await right();
    expect(await wrong()).toMatchObject({ lockedMs: 0 });
    expect(await wrong()).toMatchObject({ lockedMs: 0 });
  });

  it('runs one check per client at a time and counts it before it runs', async () => {
    const { lockout } = setup();
    let release: (value: boolean) => void = () => undefined;
    const slow = lockout.guard('ip', () => new Promise<boolean>((resolve) => (release = resolve)));
    expect(await lockout.guard('ip', async () => true)).toEqual({ kind: 'busy' });
    expect((await lockout.guard('other', async () => true)).kind).toBe('checked');
    release(false);
    expect(await slow).toMatchObject({ kind: 'checked', succeeded: false });
  });

  it('never shortens a lock, and counts a check that throws as a failure', async () => {
    const store = new MemoryLockoutStore();
    const rules = ADMIN_LOCKOUT_RULES;
    for (let i = 0; i < 3; i += 1) {
      expect(await store.begin('ip', 1000, rules)).toEqual({ kind: 'admitted' });
      await store.finish('ip', 1000, false, rules);
    }
    // A failure reported late (a check still in flight when the lock began) keeps the lock.
    expect(await store.finish('ip', 2000, false, rules)).toBe(1000 + rules.lockoutMs - 2000);
    expect(await store.begin('ip', 3000, rules)).toMatchObject({ kind: 'locked' });

    let now = 0;
    const lockout = new AdminLockout(new MemoryLockoutStore(), () => now);
    for (let i = 0; i < 2; i += 1) {
      await expect(
        lockout.guard('ip', async () => {
          throw new Error('database down');
        }),
      ).rejects.toThrow('database down');
    }
    now = 1;
    expect(await lockout.guard('ip', async () => false)).toMatchObject({ lockedMs: 300_000 });
  });
});
