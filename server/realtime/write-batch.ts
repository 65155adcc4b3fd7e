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
 */

/** The socket calls this needs (a `net.Socket` has them). */
export interface Corkable {
  cork(): void;
  uncork(): void;
}

const corked = new Set<Corkable>();
let scheduled = false;

function flush(): void {
  scheduled = false;
  for (const socket of corked) socket.uncork();
  corked.clear();
}

/** Corks `socket` until the end of the current turn (once per turn, however often called). */
export function batchThisTurn(socket: Corkable): void {
  if (corked.has(socket)) return;
  socket.cork();
  corked.add(socket);
  if (!scheduled) {
    scheduled = true;
    setImmediate(flush);
  }
}
