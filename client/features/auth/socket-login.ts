/**
 * The key login's socket (docs/protocol.md "Key login on the socket"): the `/chat-ws` socket the
 * chat is about to open, opened by the login instead. The challenge and the verification go over
 * it as two frames, and once a session is open the socket is parked for the chat
 * (lib/realtime/socket-handoff.ts), which then joins over it with the new token: a login costs the
 * server two frames on a socket it would hold anyway, instead of two HTTP requests.
 */
import type { WebSocketLike } from '../../lib/realtime/chat-socket.js';
import { parkSocket } from '../../lib/realtime/socket-parking.js';

/** How long the socket may take to open before the login uses the HTTP routes, in ms. */
export const LOGIN_SOCKET_OPEN_MS = 10_000;
/**
 * How long an answer may take, in ms. A verification can wait in the server's queue; past this
 * the socket is taken for lost, as a dropped connection is.
 */
export const LOGIN_ANSWER_MS = 60_000;

/** WebSocket.OPEN. */
const OPEN = 1;

/** The server refused a login frame: its text, and the wait when its login queue is full. */
export class SocketLoginRefusal extends Error {
  override readonly name = 'SocketLoginRefusal';
  constructor(
    message: string,
    /** Seconds until the same frame may be sent again (a full queue), or null. */
    readonly retryAfterSeconds: number | null,
  ) {
    super(message);
  }
}

/** The socket closed, or no answer came in time: the server said nothing about the login. */
export class SocketLoginLost extends Error {
  override readonly name = 'SocketLoginLost';
}

type AnswerType = 'login_challenge_issued' | 'login_session';

interface Waiting {
  type: AnswerType;
  resolve: (frame: Record<string, unknown>) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

function parseObject(data: unknown): Record<string, unknown> | null {
  if (typeof data !== 'string') return null;
  try {
    const value: unknown = JSON.parse(data);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

export class LoginChannel {
  private waiting: Waiting | null = null;
  /** Frames that are not the login's answers: the chat gets them with the socket. */
  private readonly kept: unknown[] = [];
  private isDone = false;

  private constructor(
    private readonly url: string,
    private readonly socket: WebSocketLike,
  ) {
    socket.onmessage = (event) => this.receive(event.data);
    socket.onclose = () => this.fail(new SocketLoginLost('The connection closed'));
    socket.onerror = () => undefined;
  }

  /** Opens a socket to `url`; rejects when it does not open within `openMs`. */
  static open(
    url: string,
    createSocket: (url: string) => WebSocketLike,
    openMs = LOGIN_SOCKET_OPEN_MS,
  ): Promise<LoginChannel> {
    return new Promise((resolve, reject) => {
      let socket: WebSocketLike;
      try {
        socket = createSocket(url);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      const timer = setTimeout(() => {
        give(new SocketLoginLost('The connection did not open'));
      }, openMs);
      const give = (error: Error | null) => {
        clearTimeout(timer);
        socket.onopen = null;
        socket.onclose = null;
        if (!error) return resolve(new LoginChannel(url, socket));
        try {
          socket.close(1000, 'Login');
        } catch {
          // Never opened.
        }
        reject(error);
      };
      socket.onopen = () => give(null);
      socket.onclose = () => give(new SocketLoginLost('The connection did not open'));
      socket.onerror = () => undefined;
    });
  }

  /**
   * Sends `frame` and resolves with the server's `answerType` frame; rejects with
   * {@link SocketLoginRefusal} for its `error` frame and {@link SocketLoginLost} when the socket
   * closes or the answer does not come within `answerMs`. One question at a time.
   */
  ask(
    frame: Record<string, unknown>,
    answerType: AnswerType,
    answerMs = LOGIN_ANSWER_MS,
  ): Promise<Record<string, unknown>> {
    if (this.isDone || this.socket.readyState !== OPEN) {
      return Promise.reject(new SocketLoginLost('The connection closed'));
    }
    if (this.waiting) return Promise.reject(new Error('A login question is already waiting'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.fail(new SocketLoginLost('No answer'));
      }, answerMs);
      this.waiting = { type: answerType, resolve, reject, timer };
      this.socket.send(JSON.stringify(frame));
    });
  }

  /** Parks the socket for the chat, with the frames kept for it; the channel is done. */
  handOver(): void {
    if (this.isDone) return;
    this.isDone = true;
    parkSocket(this.url, this.socket, this.kept);
  }

  /** Closes the socket (a failed login); the channel is done. */
  close(): void {
    if (this.isDone) return;
    this.isDone = true;
    this.socket.onmessage = null;
    this.socket.onclose = null;
    try {
      this.socket.close(1000, 'Login ended');
    } catch {
      // Already closing.
    }
  }

  private receive(data: unknown): void {
    const frame = parseObject(data);
    const waiting = this.waiting;
    if (frame && waiting && (frame.type === waiting.type || frame.type === 'error')) {
      this.waiting = null;
      clearTimeout(waiting.timer);
      if (frame.type === waiting.type) {
        waiting.resolve(frame);
        return;
      }
      const message = typeof frame.message === 'string' ? frame.message : '';
      const retry = frame.retryAfterSeconds;
      waiting.reject(
        new SocketLoginRefusal(
          message,
          typeof retry === 'number' && Number.isInteger(retry) && retry > 0 ? retry : null,
        ),
      );
      return;
    }
    this.kept.push(data);
  }

  private fail(error: Error): void {
    const waiting = this.waiting;
    if (!waiting) return;
    this.waiting = null;
    clearTimeout(waiting.timer);
    waiting.reject(error);
  }
}
