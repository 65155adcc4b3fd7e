/**
 * The `entry` of a member list entry and the create-room option (issue 31): the member list
 * carries only one of three words, so a lying server can mislabel a member but never put its own
 * text on the screen; the option is a boolean, absent by default.
 */
import { describe, expect, it } from 'vitest';
import { CreateRoomRequestSchema } from '../../../../shared/protocol/http/rooms.js';
import { RoomUserSchema } from '../../../../shared/protocol/ws/chat.js';

const member = {
  nodeId: 'node_1',
  username: 'Agent7',
  status: 'online',
  role: 'user',
  isAuthenticated: true,
  connectionTime: '2026-11-28T12:00:00.000Z',
  lastSeen: '2026-11-28T12:00:00.000Z',
  isVoiceActive: false,
  secureId: 'SCK_0123ABCD',
};

describe('RoomUserSchema entry', () => {
  it('accepts key, code and open, and an entry from an older server without one', () => {
    for (const entry of ['key', 'code', 'open'])
      expect(RoomUserSchema.parse({ ...member, entry }).entry).toBe(entry);
    expect(RoomUserSchema.parse(member).entry).toBeUndefined();
  });

  it('refuses any other word or markup', () => {
    for (const entry of ['KEY', 'admin', '<b>key</b>', true, 1])
      expect(RoomUserSchema.safeParse({ ...member, entry }).success, String(entry)).toBe(false);
  });
});

describe('CreateRoomRequestSchema codeRequiredForKeyHolders', () => {
  it('is absent unless sent, and only a boolean', () => {
    expect(
      CreateRoomRequestSchema.parse({ name: 'ops' }).codeRequiredForKeyHolders,
    ).toBeUndefined();
    expect(
      CreateRoomRequestSchema.parse({ name: 'ops', codeRequiredForKeyHolders: true })
        .codeRequiredForKeyHolders,
    ).toBe(true);
    expect(
      CreateRoomRequestSchema.safeParse({ name: 'ops', codeRequiredForKeyHolders: 'yes' }).success,
    ).toBe(false);
  });
});
