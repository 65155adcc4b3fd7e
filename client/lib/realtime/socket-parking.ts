/**
 * Parks the key login's socket for the chat (socket-handoff.ts holds it). A parked socket nobody
 * takes within {@link PARKED_SOCKET_MS} is closed, and so is one that is parked over; one that
 * closes by itself leaves the slot.
 */
import {
  dropParkedSocket,
  holdParked,
  isParked,
  releaseParked,
  type ParkedSocket,
} from './socket-handoff.js';
import type { WebSocketLike } from './websocket-like.js';

/** How long a parked socket waits for the chat, in ms. */
export const PARKED_SOCKET_MS = 15_000;

/** Parks an open socket to `url` for the chat, with the frames it has kept so far. */
export function parkSocket(url: string, socket: WebSocketLike, received: unknown[] = []): void {
  // WebSocket.OPEN
  if (socket.readyState !== 1) {
    dropParkedSocket();
    socket.onclose = null;
    socket.onmessage = null;
    try {
      socket.close(1000, 'Unused');
    } catch {
      // Already closing.
    }
    return;
  }
  const timer = setTimeout(() => {
    if (isParked(entry)) dropParkedSocket();
  }, PARKED_SOCKET_MS);
  const entry: ParkedSocket = {
    url,
    socket,
    received: [...received],
    end: () => clearTimeout(timer),
  };
  holdParked(entry);
  socket.onmessage = (event) => entry.received.push(event.data);
  socket.onclose = () => releaseParked(entry);
  socket.onerror = () => undefined;
}
