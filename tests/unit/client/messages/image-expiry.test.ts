/**
 * An image message at expiry (spec 000 §4 "Image"): it is destroyed, shows IMAGE DESTROYED for
 * 30 s, and only then leaves the list; a text message leaves at its expiry. Both ways a message
 * expires are covered: the client's own tick and the server's `messages_expired`.
 */
import { describe, expect, it } from 'vitest';
import { type Message } from '../../../../shared/protocol/ws/chat.js';
import {
  chatRoomReducer,
  initialChatRoomState,
  type ChatRoomState,
} from '../../../../client/features/rooms/chat-room-state.js';
import { isLineShown, lineLeavesAtMs } from '../../../../client/features/messages/chat-line.js';
import { messageFixture } from '../../../support/message-fixture.js';

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

function message(id: string, hasImage: boolean): Message {
  return messageFixture({
    id,
    roomId: 'room-1',
    hasImage,
    createdAt: iso(T0),
    expiresAt: iso(T0 + 30_000),
  });
}

function withMessages(): ChatRoomState {
  let state = chatRoomReducer(initialChatRoomState(), {
    type: 'room_joined',
    frame: {
      type: 'room_joined',
      roomId: 'room-1',
      nodeId: 'node-alice',
      messages: [],
      memberCount: 2,
      accessToken: 'grant',
    },
    now: T0,
  });
  for (const [id, image] of [
    ['text', false],
    ['image', true],
  ] as const)
    state = chatRoomReducer(state, { type: 'new_message', message: message(id, image), now: T0 });
  return state;
}

const ids = (state: ChatRoomState) => state.lines.map((line) => line.id);

describe('image message expiry', () => {
  it('keeps an image row 30 s past its expiry, a text row not at all', () => {
    const state = withMessages();
    const [text, image] = state.lines;
    expect(lineLeavesAtMs(text!)).toBe(T0 + 30_000);
    expect(lineLeavesAtMs(image!)).toBe(T0 + 60_000);
    expect(isLineShown(image!, T0 + 59_999)).toBe(true);
    expect(isLineShown(image!, T0 + 60_000)).toBe(false);
  });

  it('on the tick: the text goes at expiry, the image 30 s later', () => {
    let state = withMessages();
    state = chatRoomReducer(state, { type: 'tick', now: T0 + 29_999 });
    expect(ids(state)).toEqual(['text', 'image']);
    state = chatRoomReducer(state, { type: 'tick', now: T0 + 30_000 });
    expect(ids(state)).toEqual(['image']);
    state = chatRoomReducer(state, { type: 'tick', now: T0 + 59_000 });
    expect(ids(state)).toEqual(['image']);
    state = chatRoomReducer(state, { type: 'tick', now: T0 + 60_000 });
    expect(ids(state)).toEqual([]);
  });

  it("on the server's messages_expired: the text goes, the image is destroyed now and kept 30 s", () => {
    let state = withMessages();
    // The server's word comes a little early on this clock: the image is destroyed from then on.
    state = chatRoomReducer(state, {
      type: 'expired',
      messageIds: ['text', 'image', 'unknown'],
      now: T0 + 29_000,
    });
    expect(ids(state)).toEqual(['image']);
    expect(state.lines[0]!.expiresAtMs).toBe(T0 + 29_000);
    state = chatRoomReducer(state, { type: 'tick', now: T0 + 58_999 });
    expect(ids(state)).toEqual(['image']);
    state = chatRoomReducer(state, { type: 'tick', now: T0 + 59_000 });
    expect(ids(state)).toEqual([]);
  });

  it('a deletion (message_deleted) still removes an image row at once', () => {
    let state = withMessages();
    state = chatRoomReducer(state, { type: 'remove', messageIds: ['image'] });
    expect(ids(state)).toEqual(['text']);
  });

  it('a history image already expired but within its 30 s is shown on join, an older one not', () => {
    const recent = messageFixture({
      id: 'recent',
      roomId: 'room-1',
      hasImage: true,
      createdAt: iso(T0 - 40_000),
      expiresAt: iso(T0 - 10_000),
    });
    const old = { ...recent, id: 'old', expiresAt: iso(T0 - 31_000) };
    const state = chatRoomReducer(initialChatRoomState(), {
      type: 'room_joined',
      frame: {
        type: 'room_joined',
        roomId: 'room-1',
        nodeId: 'node-alice',
        messages: [old, recent],
        memberCount: 2,
        accessToken: 'grant',
      },
      now: T0,
    });
    expect(ids(state)).toEqual(['recent']);
  });
});
