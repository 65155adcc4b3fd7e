/**
 * Paces what the HTTP server reads, so that a flood of requests cannot hold the chat's event loop
 * (issue 22, target 2).
 *
 * libuv reads every socket that became readable in one poll before it polls again, and Node parses
 * each request and calls its handler as it reads it. When 1,000 login requests land at once, the
 * whole lot runs in one turn of the event loop: 50–100 ms during which no chat frame is read or
 * written, whatever the route does with the requests. Here the server hands at most
 * `requestsPerTurn` requests a turn to its handler. The first request past that number stops the
 * reading of every HTTP socket (those still waiting in this poll are then skipped by libuv), and
 * waits for the next turn itself; each later turn hands over the requests that wait, then
 * lets sockets read again, oldest first, as many as the turn has room for. Connections opened
 * while requests wait are held the same way. Nothing is refused or dropped here: a request waits
 * some turns, in order, and chat frames (upgraded sockets are never held) are read between them.
 *
 * Under ordinary load (a page load is a few requests a poll) nothing changes: the pacing only
 * starts when one turn brings more than `requestsPerTurn` requests. WebSocket upgrades are not
 * counted; a held socket's upgrade waits its turn like a request.
 */
import type { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Server as TlsServer } from 'node:tls';

/** Requests handed to the handler in one event-loop turn before the rest wait. */
export const REQUESTS_PER_TURN = 16;

type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

export interface RequestPacingOptions {
  requestsPerTurn?: number;
}

/** What the pacing has done so far (for tests and the bench). */
export interface RequestPacingStats {
  /** Requests that waited at least one turn. */
  deferred: number;
  /** Times a turn's requests stopped the reading of the other sockets. */
  holds: number;
  /** Sockets not reading now. */
  held: number;
  /** Requests waiting now. */
  waiting: number;
}

/**
 * Puts the pacing in front of the server's one `request` listener (Fastify's handler, or a
 * wrapper of it). `server`: the app's HTTP or HTTPS server; call it once the listener is there.
 */
export function paceRequests(
  server: EventEmitter,
  options: RequestPacingOptions = {},
): RequestPacingStats {
  const perTurn = Math.max(1, options.requestsPerTurn ?? REQUESTS_PER_TURN);
  const listeners = server.listeners('request') as RequestListener[];
  if (listeners.length !== 1) {
    throw new Error(`request pacing: expected one request listener, found ${listeners.length}`);
  }
  const [handle] = listeners as [RequestListener];
  server.removeListener('request', handle);

  const stats: RequestPacingStats = { deferred: 0, holds: 0, held: 0, waiting: 0 };
  /** HTTP sockets of this server that have not been upgraded, in no order. */
  const open = new Set<Socket>();
  /** Sockets whose reading was stopped, oldest first (a Set keeps insertion order). */
  const held = new Set<Socket>();
  const waiting: [IncomingMessage, ServerResponse][] = [];
  /** Requests handed over since the last turn began. */
  let handedOver = 0;
  let sweptThisTurn = false;
  let turnScheduled = false;

  const hold = (socket: Socket): void => {
    if (held.has(socket) || socket.destroyed) return;
    held.add(socket);
    socket.pause();
  };

  const dispatch = (request: IncomingMessage, response: ServerResponse): void => {
    handedOver += 1;
    handle.call(server, request, response);
  };

  const turn = (): void => {
    turnScheduled = false;
    handedOver = 0;
    sweptThisTurn = false;
    while (handedOver < perTurn && waiting.length > 0) {
      const [request, response] = waiting.shift()!;
      // A client that went away while it waited: Node has already ended the exchange.
      if (request.socket.destroyed) continue;
      dispatch(request, response);
    }
    // Each socket let go may bring one request in the coming poll.
    let room = perTurn - handedOver - waiting.length;
    for (const socket of held) {
      if (room <= 0) break;
      held.delete(socket);
      if (socket.destroyed) continue;
      socket.resume();
      room -= 1;
    }
    stats.held = held.size;
    stats.waiting = waiting.length;
    if (waiting.length > 0 || held.size > 0) scheduleTurn();
  };

  const scheduleTurn = (): void => {
    if (turnScheduled) return;
    turnScheduled = true;
    setImmediate(turn);
  };

  const forget = (socket: Socket): void => {
    open.delete(socket);
    held.delete(socket);
  };

  // An HTTPS server's requests come on the TLS sockets, not on the TCP sockets under them.
  const connectionEvent = server instanceof TlsServer ? 'secureConnection' : 'connection';
  server.on(connectionEvent, (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => forget(socket));
    if (waiting.length > 0 || held.size > 0) {
      hold(socket);
      stats.held = held.size;
    }
  });
  // An upgraded socket belongs to the WebSocket server from now on. Without another upgrade
  // listener Node would have closed the connection; it still is.
  const onUpgrade = (_request: IncomingMessage, socket: Socket): void => {
    forget(socket);
    if (server.listenerCount('upgrade') === 1) socket.destroy();
  };
  server.on('upgrade', onUpgrade);

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    scheduleTurn();
    if (handedOver < perTurn && waiting.length === 0) {
      dispatch(request, response);
      return;
    }
    if (!sweptThisTurn) {
      // Once a turn: stop every socket, so that libuv skips those still to be read.
      sweptThisTurn = true;
      stats.holds += 1;
      for (const socket of open) hold(socket);
    }
    // This one too (a new connection, or one that pipelines): it reads again in its turn, or
    // as soon as the handler reads the request's body.
    hold(request.socket);
    stats.deferred += 1;
    waiting.push([request, response]);
    stats.held = held.size;
    stats.waiting = waiting.length;
  });
  return stats;
}
