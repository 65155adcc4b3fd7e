/**
 * Work that runs one task per event-loop turn. Node handles every socket that became readable in
 * one poll before it polls again, so a burst of heavy tasks started from I/O callbacks (500 login
 * bodies arriving at once, or 500 statements on the embedded database) would keep a chat frame
 * that arrives meanwhile waiting for all of them. Tasks queued here run in arrival order, one at a
 * time, each after a `setImmediate`, so the event loop reads sockets between any two of them: a
 * chat frame waits for at most one task.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

export class TurnQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => T | Promise<T>): Promise<T> {
    const result = this.tail.then(() => nextTurn()).then(task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
