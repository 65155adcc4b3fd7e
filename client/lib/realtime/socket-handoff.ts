/**
 * A chat socket handed from the key login to the chat (docs/protocol.md "Key login on the
 * socket"). The login opens the `/chat-ws` socket the chat would open next, logs in over it and
 * parks it here (socket-parking.ts); the chat's first connection takes it instead of opening
 * another, with whatever the server sent while it waited (a service notice, in arrival order).
 * This module is the slot alone, so that the chat's pages carry no more than the taking.
 */
import type { WebSocketLike } from './websocket-like.js';

export interface HandedSocket {
  socket: WebSocketLike;
  /** Frames received while parked (raw data), oldest first. */
  received: unknown[];
}

/** A parked socket: `url` is where it leads, `end` stops its clock. */
export interface ParkedSocket extends HandedSocket {
  url: string;
  end(): void;
}

let parked: ParkedSocket | null = null;

/** Takes the slot for `entry`; a socket parked before is closed. */
export function holdParked(entry: ParkedSocket): void {
  dropParkedSocket();
  parked = entry;
}

/** True while `entry` holds the slot. */
export function isParked(entry: ParkedSocket): boolean {
  return parked === entry;
}

/** Empties the slot when `entry` holds it (its socket closed, its time ran out). */
export function releaseParked(entry: ParkedSocket): void {
  if (parked !== entry) return;
  parked = null;
  entry.end();
}

function detach(socket: WebSocketLike): void {
  socket.onopen = null;
  socket.onclose = null;
  socket.onmessage = null;
  socket.onerror = null;
}

/** The parked socket to `url` when it is still open (it is then no longer parked), else null. */
export function takeParkedSocket(url: string): HandedSocket | null {
  const entry = parked;
  if (!entry || entry.url !== url) return null;
  releaseParked(entry);
  detach(entry.socket);
  // WebSocket.OPEN
  if (entry.socket.readyState !== 1) return null;
  return { socket: entry.socket, received: entry.received };
}

/** Closes the parked socket, if any (a logout, a newer login). */
export function dropParkedSocket(): void {
  const entry = parked;
  if (!entry) return;
  releaseParked(entry);
  detach(entry.socket);
  try {
    entry.socket.close(1000, 'Unused');
  } catch {
    // Already closing.
  }
}
