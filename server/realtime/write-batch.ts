/**
 * Frames written to one socket during one turn of the event loop leave in one system call. The
 * first write of a turn corks the socket; the sockets corked this turn are uncorked together
 * from `setImmediate`, which runs once the turn's I/O callbacks (and their promises) are done, so
 * a frame waits for at most the rest of the turn. Node then hands every queued chunk to one
 * `writev`.
 *
 * Why: a join sends its news (user_joined) to every member, and when a room fills, many joins
 * are handled in one turn: 500 joins into one room were 125,000 writes of a few hundred bytes,
 * each its own system call (about 3 µs), most of a join's CPU in the room-fill bench. Corked,
 * a member gets the turn's joins in one call. `ws` corks and uncorks around its own two-chunk
 * writes; corks are counted, so those nest inside this one and keep their order.
 *
 * The turn's sockets are kept in two arrays used in turn, never emptied by a new allocation:
 * this runs for every delivery, and a long-lived `Set` cleared every turn got a new hash table
 * each time, which V8 allocates straight in the old generation when the set lives there. At
 * 2,500 messages a second that was a third of what the old generation gained, and so of how
 * often the server paused for a full collection (docs/benchmarks.md, "Issue 36: the tail at
 * 2,500 msg/s").
 */

/** The socket calls this needs (a `net.Socket` has them). */
export interface Corkable {
  cork(): void;
  uncork(): void;
}

/** One socket's place in the batch, made once per socket: whether it is corked this turn. */
export class BatchedSocket {
  corked = false;
  constructor(readonly socket: Corkable) {}
}

let current: (BatchedSocket | null)[] = [];
let spare: (BatchedSocket | null)[] = [];
let count = 0;
let scheduled = false;

function flush(): void {
  scheduled = false;
  // A socket corked while this loop uncorks (a write from a callback) waits for the next turn.
  const corked = current;
  const length = count;
  current = spare;
  spare = corked;
  count = 0;
  for (let index = 0; index < length; index += 1) {
    const entry = corked[index]!;
    corked[index] = null;
    entry.corked = false;
    entry.socket.uncork();
  }
}

/** Corks the socket until the end of the current turn (once per turn, however often called). */
export function batchThisTurn(entry: BatchedSocket): void {
  if (entry.corked) return;
  entry.corked = true;
  entry.socket.cork();
  current[count] = entry;
  count += 1;
  if (!scheduled) {
    scheduled = true;
    setImmediate(flush);
  }
}
