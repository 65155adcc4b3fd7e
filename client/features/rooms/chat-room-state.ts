/**
 * The chat room's state as a pure reducer over parsed server frames (spec 000 §7) and local
 * events, so every rule is testable without a socket or React. Side effects (sounds, toasts,
 * navigation, decryption) stay in use-chat-room.ts.
 *
 * Times: a message's expiry is carried over to this browser's clock. A new message's lifetime is
 * measured from the moment it arrives (expiresAt − createdAt, both the server's); history uses the
 * clock offset seen on the last new message, so a skewed client clock neither drops messages at
 * once nor keeps them too long.
 */
import {
  SIMULATION_MESSAGE_DISPLAY_SECONDS,
  SYSTEM_MESSAGE_DISPLAY_SECONDS,
} from '../../../shared/constants.js';
import type { Message, RoomUser } from '../../../shared/protocol/ws/chat.js';
import { type ServerFrameOf } from '../../lib/realtime/chat-socket.js';
import {
  afterExpiry,
  isLineShown,
  type ChatLine,
  type MessageLine,
  type SystemLevel,
} from '../messages/index.js';
import { PENDING_DISPLAY, type DecryptedMessage } from '../../lib/message-cipher.js';

/** Lines kept at most; messages expire long before a real room reaches this. */
export const MAX_CHAT_LINES = 500;

export interface TypingUser {
  nodeId: string;
  username: string;
}

export interface ChatRoomState {
  /** The room this connection has joined; null before room_joined and after a disconnect. */
  joinedRoomId: string | null;
  /** The room the lines belong to (they stay on screen while disconnected). */
  linesRoomId: string | null;
  /** This connection's node id, from room_joined. */
  nodeId: string | null;
  lines: ChatLine[];
  memberCount: number;
  users: RoomUser[];
  typing: TypingUser[];
  /** Server clock minus this browser's clock, in ms, as last observed. */
  clockOffsetMs: number;
  /**
   * This browser's clock (never the server's) when lines last arrived or left: the countdowns
   * never show a line as older than that, between two ticks of the message list's clock.
   */
  linesAt: number;
}

export type ChatRoomAction =
  | { type: 'room_joined'; frame: ServerFrameOf<'room_joined'>; now: number }
  | { type: 'new_message'; message: Message; now: number }
  | { type: 'remove'; messageIds: readonly string[] }
  /** `messages_expired`: gone, but an image message shows IMAGE DESTROYED 30 s first. */
  | { type: 'expired'; messageIds: readonly string[]; now: number }
  | { type: 'presence'; frame: ServerFrameOf<'user_joined' | 'user_left'>; id: string; now: number }
  /** `users_joined`: `ids[i]` is the id of the line for `frame.users[i]`. */
  | {
      type: 'users_joined';
      frame: ServerFrameOf<'users_joined'>;
      ids: readonly string[];
      now: number;
    }
  | { type: 'user_list'; roomId: string; users: RoomUser[] }
  | { type: 'typing'; frame: ServerFrameOf<'typing_start' | 'typing_stop'> }
  | {
      type: 'system';
      id: string;
      text: string;
      level: SystemLevel;
      source: 'server' | 'local';
      now: number;
      /** A /simulation line: labelled, and shown SIMULATION_MESSAGE_DISPLAY_SECONDS. */
      isSimulated?: boolean;
    }
  | { type: 'decrypted'; id: string; display: DecryptedMessage }
  | { type: 'disconnected' }
  | { type: 'tick'; now: number };

export function initialChatRoomState(): ChatRoomState {
  return {
    joinedRoomId: null,
    linesRoomId: null,
    nodeId: null,
    lines: [],
    memberCount: 0,
    users: [],
    typing: [],
    clockOffsetMs: 0,
    linesAt: 0,
  };
}

/**
 * The member list after a join or leave (a delta): a newcomer's entry replaces any entry with its
 * node id, a leaver's is removed. The whole list comes once, in `user_list_update` after the join.
 */
export function applyPresence(
  users: RoomUser[],
  frame: ServerFrameOf<'user_joined' | 'user_left'>,
): RoomUser[] {
  if (frame.type === 'user_left') {
    return users.some((user) => user.nodeId === frame.nodeId)
      ? users.filter((user) => user.nodeId !== frame.nodeId)
      : users;
  }
  return frame.user ? withJoined(users, [frame.user]) : users;
}

/** The member list with these newcomers' entries, each replacing any entry with its node id. */
export function withJoined(users: RoomUser[], joined: readonly RoomUser[]): RoomUser[] {
  const ids = new Set(joined.map((user) => user.nodeId));
  return [...users.filter((user) => !ids.has(user.nodeId)), ...joined];
}

function byCreation(a: ChatLine, b: ChatLine): number {
  return a.createdAtMs - b.createdAtMs;
}

function capLines(lines: ChatLine[]): ChatLine[] {
  return lines.length > MAX_CHAT_LINES ? lines.slice(lines.length - MAX_CHAT_LINES) : lines;
}

function historyLine(message: Message, state: ChatRoomState, nodeId: string): MessageLine {
  const previous = state.lines.find(
    (line): line is MessageLine => line.kind === 'message' && line.id === message.id,
  );
  return {
    kind: 'message',
    id: message.id,
    message,
    display: previous?.display ?? PENDING_DISPLAY,
    isOwn: previous?.isOwn ?? message.senderId === nodeId,
    createdAtMs: Date.parse(message.createdAt) - state.clockOffsetMs,
    expiresAtMs: Date.parse(message.expiresAt) - state.clockOffsetMs,
  };
}

function systemLine(
  id: string,
  text: string,
  level: SystemLevel,
  source: 'server' | 'local',
  now: number,
  isSimulated = false,
): ChatLine {
  const seconds = isSimulated ? SIMULATION_MESSAGE_DISPLAY_SECONDS : SYSTEM_MESSAGE_DISPLAY_SECONDS;
  return {
    kind: 'system',
    id,
    text,
    level,
    source,
    createdAtMs: now,
    expiresAtMs: now + seconds * 1000,
    ...(isSimulated ? { isSimulated: true } : {}),
  };
}

/** `users` with one member marked typing or back online (other statuses are left alone). */
function withStatus(users: RoomUser[], nodeId: string, isTyping: boolean): RoomUser[] {
  const member = users.find((user) => user.nodeId === nodeId);
  if (!member) return users;
  const status = isTyping ? 'typing' : member.status === 'typing' ? 'online' : member.status;
  if (status === member.status) return users;
  return users.map((user) => (user.nodeId === nodeId ? { ...user, status } : user));
}

/** True when a frame about `roomId` belongs to the room on screen. */
function isCurrentRoom(state: ChatRoomState, roomId: string): boolean {
  return state.joinedRoomId !== null && state.joinedRoomId === roomId;
}

export function chatRoomReducer(state: ChatRoomState, action: ChatRoomAction): ChatRoomState {
  switch (action.type) {
    case 'room_joined': {
      const { frame } = action;
      // Rejoining the same room keeps the local lines; a new room starts empty.
      const kept =
        state.linesRoomId === frame.roomId ? state.lines.filter((l) => l.kind === 'system') : [];
      const history = frame.messages.map((message) => historyLine(message, state, frame.nodeId));
      return {
        ...state,
        joinedRoomId: frame.roomId,
        linesRoomId: frame.roomId,
        nodeId: frame.nodeId,
        lines: capLines(
          [...kept, ...history].filter((line) => isLineShown(line, action.now)).sort(byCreation),
        ),
        memberCount: frame.memberCount,
        users: state.linesRoomId === frame.roomId ? state.users : [],
        typing: [],
        linesAt: Math.max(state.linesAt, action.now),
      };
    }
    case 'new_message': {
      const { message, now } = action;
      if (!isCurrentRoom(state, message.roomId)) return state;
      if (state.lines.some((line) => line.id === message.id)) return state;
      const createdAt = Date.parse(message.createdAt);
      const line: MessageLine = {
        kind: 'message',
        id: message.id,
        message,
        display: PENDING_DISPLAY,
        isOwn: message.senderId === state.nodeId,
        createdAtMs: now,
        expiresAtMs: now + (Date.parse(message.expiresAt) - createdAt),
      };
      return {
        ...state,
        clockOffsetMs: createdAt - now,
        linesAt: Math.max(state.linesAt, now),
        lines: capLines([...state.lines, line]),
        typing: state.typing.filter((user) => user.nodeId !== message.senderId),
        users: withStatus(state.users, message.senderId, false),
      };
    }
    case 'remove': {
      const ids = new Set(action.messageIds);
      const lines = state.lines.filter((line) => !ids.has(line.id));
      return lines.length === state.lines.length ? state : { ...state, lines };
    }
    case 'expired': {
      const lines = afterExpiry(state.lines, action.messageIds, action.now);
      return lines === state.lines ? state : { ...state, lines };
    }
    case 'presence': {
      const { frame } = action;
      if (!isCurrentRoom(state, frame.roomId)) return state;
      const verb = frame.type === 'user_joined' ? 'joined' : 'left';
      const text = `${frame.username || 'A node'} ${verb} the channel`;
      return {
        ...state,
        memberCount: frame.memberCount,
        linesAt: Math.max(state.linesAt, action.now),
        lines: capLines([
          ...state.lines,
          systemLine(action.id, text, 'info', 'server', action.now),
        ]),
        users: applyPresence(state.users, frame),
        typing:
          frame.type === 'user_left'
            ? state.typing.filter((user) => user.nodeId !== frame.nodeId)
            : state.typing,
      };
    }
    case 'users_joined': {
      const { frame } = action;
      if (!isCurrentRoom(state, frame.roomId)) return state;
      // A newcomer of the window finds its own entry here too: it has that from its list.
      const lines: ChatLine[] = [];
      const joined: RoomUser[] = [];
      frame.users.forEach((user, index) => {
        if (user.nodeId === state.nodeId) return;
        joined.push(user);
        const id = action.ids[index] ?? `${action.ids[0] ?? 'joined'}-${index}`;
        const text = `${user.username || 'A node'} joined the channel`;
        lines.push(systemLine(id, text, 'info', 'server', action.now));
      });
      return {
        ...state,
        memberCount: frame.memberCount,
        linesAt: Math.max(state.linesAt, action.now),
        lines: capLines([...state.lines, ...lines]),
        users: withJoined(state.users, joined),
      };
    }
    case 'user_list':
      if (!isCurrentRoom(state, action.roomId)) return state;
      return { ...state, users: action.users, memberCount: action.users.length };
    case 'typing': {
      const { frame } = action;
      if (state.joinedRoomId === null) return state;
      const isTyping = frame.type === 'typing_start';
      // This tab's own typing shows in its operatives row, never in the "is typing" line.
      if (frame.nodeId === state.nodeId)
        return { ...state, users: withStatus(state.users, frame.nodeId, isTyping) };
      const others = state.typing.filter((user) => user.nodeId !== frame.nodeId);
      return {
        ...state,
        typing: isTyping ? [...others, { nodeId: frame.nodeId, username: frame.username }] : others,
        // The operatives list follows the typing frames at once (the server keeps the same
        // status for the next member list, which it sends only on joins, leaves and requests).
        users: withStatus(state.users, frame.nodeId, isTyping),
      };
    }
    case 'system':
      return {
        ...state,
        linesAt: Math.max(state.linesAt, action.now),
        lines: capLines([
          ...state.lines,
          systemLine(
            action.id,
            action.text,
            action.level,
            action.source,
            action.now,
            action.isSimulated,
          ),
        ]),
      };
    case 'decrypted':
      return {
        ...state,
        lines: state.lines.map((line) =>
          line.kind === 'message' && line.id === action.id
            ? { ...line, display: action.display }
            : line,
        ),
      };
    case 'disconnected':
      return { ...state, joinedRoomId: null, typing: [] };
    case 'tick': {
      // Unchanged unless a line leaves: a quiet room does not render again every second.
      const lines = state.lines.filter((line) => isLineShown(line, action.now));
      return lines.length === state.lines.length
        ? state
        : { ...state, lines, linesAt: Math.max(state.linesAt, action.now) };
    }
  }
}
