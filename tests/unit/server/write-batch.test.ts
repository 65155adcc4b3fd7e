import { describe, expect, it } from 'vitest';
import { BatchedSocket, batchThisTurn } from '../../../server/realtime/write-batch.js';

function fakeSocket(onUncork: () => void = () => undefined) {
  const calls: string[] = [];
  const socket = {
    cork: () => calls.push('cork'),
    uncork: () => {
      calls.push('uncork');
      onUncork();
    },
  };
  return Object.assign(new BatchedSocket(socket), { calls });
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

  it('uncorks, at the next turn end, a socket corked again while the batch is uncorked', async () => {
    const b = fakeSocket();
    let again = true;
    const a = fakeSocket(() => {
      // A write from inside the flush (a drain callback, say) starts the next batch.
      if (again) batchThisTurn(b);
      again = false;
    });
    batchThisTurn(a);
    await nextTurn();
    expect(a.calls).toEqual(['cork', 'uncork']);
    expect(b.calls).toEqual(['cork']);
    await nextTurn();
    expect(b.calls).toEqual(['cork', 'uncork']);
  });

  it('keeps every socket of a large turn and none of an earlier one', async () => {
    const sockets = Array.from({ length: 1000 }, () => fakeSocket());
    for (const socket of sockets) batchThisTurn(socket);
    await nextTurn();
    const few = sockets.slice(0, 3);
    for (const socket of few) batchThisTurn(socket);
    await nextTurn();
    expect(few.map((socket) => socket.calls)).toEqual(
      few.map(() => ['cork', 'uncork', 'cork', 'uncork']),
    );
    expect(sockets.slice(3).every((socket) => socket.calls.join() === 'cork,uncork')).toBe(true);
  });
});
