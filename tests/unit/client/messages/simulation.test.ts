/**
 * The /simulation drill (spec 000 §2, §3 isSimulated, §4 "simulation messages 60 s"): labelled
 * lines on this screen only, built from the real messages' relay view, never their text.
 */
import { describe, expect, it } from 'vitest';
import { type Message } from '../../../../shared/protocol/ws/chat.js';
import { type ChatLine } from '../../../../client/features/messages/chat-line.js';
import { PENDING_DISPLAY } from '../../../../client/lib/message-cipher.js';
import {
  describeSimulation,
  SIMULATION_TEXT,
} from '../../../../client/features/messages/simulation.js';
import {
  chatRoomReducer,
  initialChatRoomState,
} from '../../../../client/features/rooms/chat-room-state.js';

const T0 = Date.parse('2030-01-01T00:00:00.000Z');

function line(id: string, overrides: Partial<Message>): ChatLine {
  return {
    kind: 'message',
    id,
    isOwn: false,
    display: { ...PENDING_DISPLAY, state: 'decrypted', text: 'the secret plan' },
    createdAtMs: T0,
    expiresAtMs: T0 + 30_000,
    message: {
      id,
      senderId: 'a1b2c3d4e5f6',
      senderUsername: 'Ghost2',
      roomId: 'room-1',
      content: '',
      encryptedContent: 'x'.repeat(120),
      encryptionType: 'AES-256-GCM',
      signature: null,
      isStealthMode: false,
      hasImage: false,
      imageUrl: null,
      thumbnailUrl: null,
      imageMetadata: null,
      createdAt: new Date(T0).toISOString(),
      expiresAt: new Date(T0 + 30_000).toISOString(),
      isSystem: false,
      ...overrides,
    },
  };
}

describe('describeSimulation', () => {
  it("replays the relay's view of the newest messages and never their text", () => {
    const texts = describeSimulation([
      line('m1', {}),
      line('m2', { encryptionType: 'ZK-AES-256', encryptedContent: 'y'.repeat(64) }),
      line('s1', { isSystem: true, encryptedContent: null, content: 'moderation notice' }),
    ]);
    expect(texts[0]).toBe(SIMULATION_TEXT.intro);
    expect(texts.at(-1)).toBe(SIMULATION_TEXT.end);
    expect(texts.slice(1, -1)).toEqual([
      'Relay view: node a1b2c3d4e5f6 sent 120 characters of AES-256-GCM ciphertext, no key to open it.',
      'Relay view: node a1b2c3d4e5f6 sent 64 characters of ZK-AES-256 ciphertext, no key to open it.',
    ]);
    expect(texts.join('\n')).not.toContain('secret plan');
  });

  it('says so when the relay holds nothing for the channel', () => {
    expect(describeSimulation([])).toEqual([
      SIMULATION_TEXT.intro,
      SIMULATION_TEXT.empty,
      SIMULATION_TEXT.end,
    ]);
  });

  it('keeps simulation lines on screen 60 s, labelled, where system lines get 30 s', () => {
    let state = initialChatRoomState();
    state = chatRoomReducer(state, {
      type: 'system',
      id: 'sim',
      text: SIMULATION_TEXT.intro,
      level: 'info',
      source: 'local',
      now: T0,
      isSimulated: true,
    });
    state = chatRoomReducer(state, {
      type: 'system',
      id: 'sys',
      text: 'joined',
      level: 'info',
      source: 'local',
      now: T0,
    });
    const [simulated, system] = state.lines;
    expect(simulated).toMatchObject({ id: 'sim', isSimulated: true, expiresAtMs: T0 + 60_000 });
    expect(system).toMatchObject({ id: 'sys', expiresAtMs: T0 + 30_000 });
    expect(system && 'isSimulated' in system).toBe(false);
  });
});
