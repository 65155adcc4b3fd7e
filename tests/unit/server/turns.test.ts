/** One task per event-loop turn: I/O (here, an immediate queued meanwhile) gets in between. */
import { describe, expect, it } from 'vitest';
import { TurnQueue } from '../../../server/lib/turns.js';

describe('turn queue', () => {
  it('runs tasks in order, one per turn, and lets other work in between', async () => {
    const turns = new TurnQueue();
    const order: string[] = [];
    const tasks = [1, 2, 3].map((n) =>
      turns.run(() => {
        order.push(`task ${n}`);
        setImmediate(() => order.push(`between ${n}`));
        return n;
      }),
    );
    expect(await Promise.all(tasks)).toEqual([1, 2, 3]);
    expect(order).toEqual(['task 1', 'between 1', 'task 2', 'between 2', 'task 3']);
  });

  it('keeps going after a task fails, and the failure reaches only its caller', async () => {
    const turns = new TurnQueue();
    const failed = turns.run(() => {
      throw new Error('boom');
    });
    const next = turns.run(() => 'ok');
    await expect(failed).rejects.toThrow('boom');
    expect(await next).toBe('ok');
  });
});
