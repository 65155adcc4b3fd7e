/**
 * The socket contract of the admin UI: the chat screen owns the one `/chat-ws` connection and
 * hands these two functions to the admin panel and the bot-check hook, so those stay testable and
 * never open a second connection. `ChatSocket.send` and `ChatSocket.on` fit them as they are.
 */
import type { ClientFrame } from '../../../shared/protocol/ws/index.js';
import { type ServerFrameOf, type ServerFrameType } from '../realtime/chat-socket.js';

/** Sends a frame; false (nothing sent) when the socket is not open. */
export type SendFrame = (frame: ClientFrame) => boolean;

/** Calls `listener` with every parsed server frame of `type`; returns the unsubscribe function. */
export type OnFrame = <T extends ServerFrameType>(
  type: T,
  listener: (frame: ServerFrameOf<T>) => void,
) => () => void;
