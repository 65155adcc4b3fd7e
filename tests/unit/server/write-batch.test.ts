import { describe, expect, it } from 'vitest';
import { batchThisTurn } from '../../../server/realtime/write-batch.js';

function fakeSocket() {
  const calls: string[] = [];
  return { calls, cork: () => calls.push('cork'), uncork: () => calls.push('uncork') };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('batchThisTurn', () => {
  it('corks a socket once per turn and uncorks every socket corked in it at the turn end', async () => {
    const a = fakeSocket();
    const b = fakeSocket();
    batchThisTurn(a);
    batchThisTurn(a);
    batchThisTurn(b);
    await Promise.resolve();
    batchThisTurn(a);
    expect(a.calls).toEqual(['cork']);
    expect(b.calls).toEqual(['cork']);
    await nextTurn();
    expect(a.calls).toEqual(['cork', 'uncork']);
    expect(b.calls).toEqual(['cork', 'uncork']);
    batchThisTurn(a);
    await nextTurn();
    expect(a.calls).toEqual(['cork', 'uncork', 'cork', 'uncork']);
  });
});
