/**
 * The part of the browser's WebSocket that the chat socket, the key login's socket and their
 * hand-over use (socket-handoff.ts); tests hand in a fake.
 */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: (() => void) | null;
  onclose: ((event: { code: number }) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onerror: (() => void) | null;
}

/** The browser's WebSocket behind the {@link WebSocketLike} shape. */
export function openBrowserSocket(url: string): WebSocketLike {
  const socket = new WebSocket(url);
  const like: WebSocketLike = {
    get readyState() {
      return socket.readyState;
    },
    send: (data) => socket.send(data),
    close: (code, reason) => socket.close(code, reason),
    onopen: null,
    onclose: null,
    onmessage: null,
    onerror: null,
  };
  socket.onopen = () => like.onopen?.();
  socket.onclose = (event) => like.onclose?.({ code: event.code });
  socket.onmessage = (event) => like.onmessage?.({ data: event.data });
  socket.onerror = () => like.onerror?.();
  return like;
}
