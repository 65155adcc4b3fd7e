/**
 * The chat room reducer (spec 000 §4 "Message display", "Typing", §7): history, delivery,
 * expiry on the client clock, presence lines, typing and room switches.
 */
import { describe, expect, it } from 'vitest';
import { type Message } from '../../../../shared/protocol/ws/chat.js';
import { roomUser } from '../../../support/room-user.js';
import {
  MAX_CHAT_LINES,
  chatRoomReducer,
  initialChatRoomState,
  type ChatRoomState,
} from '../../../../client/features/rooms/chat-room-state.js';
import { secondsLeft } from '../../../../client/features/messages/chat-line.js';
import { messageFixture } from '../../../support/message-fixture.js';

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

function message(id: string, overrides: Partial<Message> = {}, at = T0): Message {
  return messageFixture({
    id,
    senderId: 'node-bob',
    senderUsername: 'Ghost2',
    roomId: 'room-1',
    content: `text ${id}`,
    createdAt: iso(at),
    expiresAt: iso(at + 30_000),
    ...overrides,
  });
}

function joined(state: ChatRoomState, messages: Message[] = [], roomId = 'room-1', now = T0) {
  return chatRoomReducer(state, {
    type: 'room_joined',
    frame: {
      type: 'room_joined',
      roomId,
      nodeId: 'node-alice',
      messages,
      memberCount: 2,
      accessToken: 'grant',
    },
    now,
  });
}

describe('chatRoomReducer', () => {
  it('shows the history of the joined room and the member count', () => {
    const state = joined(initialChatRoomState(), [message('m1')]);
    expect(state.joinedRoomId).toBe('room-1');
    expect(state.memberCount).toBe(2);
    expect(state.lines.map((line) => line.id)).toEqual(['m1']);
    expect(state.lines[0]).toMatchObject({ kind: 'message', display: { state: 'decrypting' } });
  });

  it('adds new messages once, marks its own, and ignores messages of another room', () => {
    let state = joined(initialChatRoomState());
    state = chatRoomReducer(state, { type: 'new_message', message: message('m1'), now: T0 });
    state = chatRoomReducer(state, { type: 'new_message', message: message('m1'), now: T0 });
    state = chatRoomReducer(state, {
      type: 'new_message',
      message: message('m2', { senderId: 'node-alice' }),
      now: T0,
    });
    state = chatRoomReducer(state, {
      type: 'new_message',
      message: message('m3', { roomId: 'room-2' }),
      now: T0,
    });
    expect(state.lines.map((line) => [line.id, line.kind === 'message' && line.isOwn])).toEqual([
      ['m1', false],
      ['m2', true],
    ]);
  });

  it("measures a new message's lifetime from its arrival, whatever this browser's clock says", () => {
    const skewedNow = T0 + 3_600_000;
    let state = joined(initialChatRoomState(), [], 'room-1', skewedNow);
    state = chatRoomReducer(state, { type: 'new_message', message: message('m1'), now: skewedNow });
    const line = state.lines[0]!;
    expect(secondsLeft(line, skewedNow)).toBe(30);
    expect(secondsLeft(line, skewedNow + 25_500)).toBe(5);
  });

  it("keeps the countdowns' floor on this browser's clock when the relay dates history in the future", () => {
    // A relay that lies about times cannot push the message list's clock ahead (which would show
    // every other message as destroyed): linesAt only ever takes this browser's own times.
    const future = T0 + 3_600_000;
    let state = joined(initialChatRoomState(), [message('m1', {}, future)]);
    expect(state.linesAt).toBe(T0);
    state = chatRoomReducer(state, {
      type: 'new_message',
      message: message('m2', {}, future),
      now: T0 + 1_000,
    });
    expect(state.linesAt).toBe(T0 + 1_000);
    // A tick at which a line leaves moves it on; one at which nothing leaves does not.
    state = chatRoomReducer(state, { type: 'tick', now: T0 + 2_000 });
    expect(state.linesAt).toBe(T0 + 1_000);
  });

  it('drops a line on the tick its time is up, and removes expired and deleted ids at once', () => {
    let state = joined(initialChatRoomState(), [message('m1'), message('m2'), message('m3')]);
    state = chatRoomReducer(state, { type: 'remove', messageIds: ['m1'] });
    state = chatRoomReducer(state, { type: 'remove', messageIds: ['m2', 'unknown'] });
    expect(state.lines.map((line) => line.id)).toEqual(['m3']);
    // A tick at which nothing leaves gives the same state back: nothing renders again.
    const before = state;
    state = chatRoomReducer(state, { type: 'tick', now: T0 + 29_999 });
    expect(state).toBe(before);
    expect(state.lines).toHaveLength(1);
    state = chatRoomReducer(state, { type: 'tick', now: T0 + 30_000 });
    expect(state.lines).toHaveLength(0);
  });

  it('turns joins and leaves into system lines with the new member count', () => {
    let state = joined(initialChatRoomState());
    state = chatRoomReducer(state, {
      type: 'presence',
      frame: {
        type: 'user_joined',
        roomId: 'room-1',
        username: 'Unit7',
        nodeId: 'n7',
        memberCount: 3,
      },
      id: 's1',
      now: T0,
    });
    expect(state.memberCount).toBe(3);
    expect(state.lines.at(-1)).toMatchObject({ kind: 'system', text: 'Unit7 joined the channel' });
    state = chatRoomReducer(state, {
      type: 'presence',
      frame: { type: 'user_left', roomId: 'room-2', username: 'Op1', nodeId: 'n1', memberCount: 9 },
      id: 's2',
      now: T0,
    });
    expect(state.memberCount).toBe(3);
    expect(state.lines).toHaveLength(1);
  });

  it('keeps the member list from the whole list and the join and leave deltas after it', () => {
    let state = joined(initialChatRoomState());
    state = chatRoomReducer(state, {
      type: 'user_list',
      roomId: 'room-1',
      users: [roomUser('node-alice', 'Agent1'), roomUser('node-bob', 'Ghost2')],
    });
    const presence = (
      frame: Parameters<typeof chatRoomReducer>[1] & { type: 'presence' },
    ): ChatRoomState => chatRoomReducer(state, frame);
    state = presence({
      type: 'presence',
      frame: {
        type: 'user_joined',
        roomId: 'room-1',
        username: 'Op3',
        nodeId: 'node-carol',
        memberCount: 3,
        user: roomUser('node-carol', 'Op3'),
      },
      id: 's1',
      now: T0,
    });
    // The same join heard twice (it raced the whole list) is one member.
    state = presence({
      type: 'presence',
      frame: {
        type: 'user_joined',
        roomId: 'room-1',
        username: 'Op3',
        nodeId: 'node-carol',
        memberCount: 3,
        user: roomUser('node-carol', 'Op3'),
      },
      id: 's2',
      now: T0,
    });
    expect(state.users.map((entry) => entry.username)).toEqual(['Agent1', 'Ghost2', 'Op3']);
    state = presence({
      type: 'presence',
      frame: {
        type: 'user_left',
        roomId: 'room-1',
        username: 'Ghost2',
        nodeId: 'node-bob',
        memberCount: 2,
      },
      id: 's3',
      now: T0,
    });
    expect(state.users.map((entry) => entry.username)).toEqual(['Agent1', 'Op3']);
    expect(state.memberCount).toBe(2);
    // A leave of someone not on the list changes nothing.
    const before = state.users;
    state = presence({
      type: 'presence',
      frame: {
        type: 'user_left',
        roomId: 'room-1',
        username: 'X',
        nodeId: 'node-x',
        memberCount: 2,
      },
      id: 's4',
      now: T0,
    });
    expect(state.users).toBe(before);
  });

  it("applies a window's joins told together (users_joined), skipping its own entry", () => {
    let state = joined(initialChatRoomState());
    const alice = roomUser('node-alice', 'Agent1');
    const bob = roomUser('node-bob', 'Ghost2');
    // Alice joined in the same window as bob: her list has bob already.
    state = chatRoomReducer(state, { type: 'user_list', roomId: 'room-1', users: [bob, alice] });
    const lines = state.lines.length;
    const carol = roomUser('node-carol', 'Op3');
    state = chatRoomReducer(state, {
      type: 'users_joined',
      frame: { type: 'users_joined', roomId: 'room-1', memberCount: 3, users: [bob, alice, carol] },
      ids: ['j1', 'j2', 'j3'],
      now: T0,
    });
    // Her own entry is skipped (no line for it); bob's, heard again, replaces his.
    expect(state.users.map((entry) => entry.username)).toEqual(['Agent1', 'Ghost2', 'Op3']);
    expect(state.memberCount).toBe(3);
    expect(state.lines.slice(lines)).toMatchObject([
      { kind: 'system', id: 'j1', text: 'Ghost2 joined the channel' },
      { kind: 'system', id: 'j3', text: 'Op3 joined the channel' },
    ]);
    // Another room's joins change nothing.
    const before = state;
    state = chatRoomReducer(state, {
      type: 'users_joined',
      frame: { type: 'users_joined', roomId: 'room-2', memberCount: 9, users: [carol] },
      ids: ['j4'],
      now: T0,
    });
    expect(state).toBe(before);
  });

  it('tracks who is typing, never itself, and forgets a typist who sends or leaves', () => {
    let state = joined(initialChatRoomState());
    const typing = (type: 'typing_start' | 'typing_stop', nodeId: string, username: string) =>
      chatRoomReducer(state, { type: 'typing', frame: { type, nodeId, username } });
    state = typing('typing_start', 'node-bob', 'Ghost2');
    state = typing('typing_start', 'node-alice', 'Agent1');
    state = typing('typing_start', 'node-carol', 'Op3');
    expect(state.typing.map((user) => user.username)).toEqual(['Ghost2', 'Op3']);
    state = chatRoomReducer(state, { type: 'new_message', message: message('m1'), now: T0 });
    expect(state.typing.map((user) => user.username)).toEqual(['Op3']);
    state = typing('typing_stop', 'node-carol', 'Op3');
    expect(state.typing).toEqual([]);
  });

  it('marks a typist TYPING in the operatives list at once, and back online on stop or send', () => {
    let state = joined(initialChatRoomState());
    state = chatRoomReducer(state, {
      type: 'user_list',
      roomId: 'room-1',
      users: [roomUser('node-alice', 'Agent1'), roomUser('node-bob', 'Ghost2')],
    });
    const statusOf = (nodeId: string) => state.users.find((user) => user.nodeId === nodeId)?.status;
    const typing = (type: 'typing_start' | 'typing_stop') =>
      chatRoomReducer(state, {
        type: 'typing',
        frame: { type, nodeId: 'node-bob', username: 'Ghost2' },
      });
    state = typing('typing_start');
    expect(statusOf('node-bob')).toBe('typing');
    state = typing('typing_stop');
    expect(statusOf('node-bob')).toBe('online');
    state = typing('typing_start');
    state = chatRoomReducer(state, { type: 'new_message', message: message('m1'), now: T0 });
    expect(statusOf('node-bob')).toBe('online');
    expect(statusOf('node-alice')).toBe('online');
    // This tab's own typing (dispatched as it sends the frame): its row only, not "is typing".
    state = chatRoomReducer(state, {
      type: 'typing',
      frame: { type: 'typing_start', nodeId: 'node-alice', username: 'Agent1' },
    });
    expect(statusOf('node-alice')).toBe('typing');
    expect(state.typing).toEqual([]);
  });

  it('keeps the lines on screen while disconnected, and keeps local lines across a rejoin', () => {
    let state = joined(initialChatRoomState(), [message('m1')]);
    state = chatRoomReducer(state, {
      type: 'system',
      id: 'local-1',
      text: 'theme debug',
      level: 'info',
      source: 'local',
      now: T0 + 1,
    });
    state = chatRoomReducer(state, { type: 'disconnected' });
    expect(state.joinedRoomId).toBeNull();
    expect(state.lines).toHaveLength(2);
    state = joined(state, [message('m1'), message('m2', {}, T0 + 2)]);
    expect(state.lines.map((line) => line.id)).toEqual(['m1', 'local-1', 'm2']);
  });

  it('starts empty in a new room', () => {
    let state = joined(initialChatRoomState(), [message('m1')]);
    state = chatRoomReducer(state, {
      type: 'system',
      id: 'local-1',
      text: 'hello',
      level: 'info',
      source: 'local',
      now: T0,
    });
    state = joined(state, [], 'room-2');
    expect(state.lines).toEqual([]);
    expect(state.linesRoomId).toBe('room-2');
  });

  it('replaces a message display once decrypted', () => {
    let state = joined(initialChatRoomState(), [message('m1')]);
    state = chatRoomReducer(state, {
      type: 'decrypted',
      id: 'm1',
      display: { state: 'plaintext', text: 'text m1' },
    });
    expect(state.lines[0]).toMatchObject({ display: { state: 'plaintext', text: 'text m1' } });
  });

  it(`keeps at most ${MAX_CHAT_LINES} lines`, () => {
    let state = joined(initialChatRoomState());
    for (let i = 0; i < MAX_CHAT_LINES + 5; i += 1) {
      state = chatRoomReducer(state, { type: 'new_message', message: message(`m${i}`), now: T0 });
    }
    expect(state.lines).toHaveLength(MAX_CHAT_LINES);
    expect(state.lines[0]!.id).toBe('m5');
  });
});
