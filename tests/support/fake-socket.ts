/** An open socket double for `Connection`: records what is sent, never buffers, never closes. */
import type { SocketLike } from '../../server/realtime/connection.js';

export function fakeSocket(): { socket: SocketLike; sent: string[] } {
  const sent: string[] = [];
  const socket: SocketLike = {
    readyState: 1,
    bufferedAmount: 0,
    send: (data) => sent.push(data),
    close: () => undefined,
  };
  return { socket, sent };
}
