import { describe, expect, it } from 'vitest';
import {
  MemoryPresenceStore,
  roomUserJson,
  toRoomUser,
  type PresenceMember,
} from '../../../server/features/rooms/presence.js';

const member = (nodeId: string, extra: Partial<PresenceMember> = {}): PresenceMember => ({
  roomId: 'r',
  nodeId,
  username: `Agent${nodeId}`,
  status: 'online',
  role: 'user',
  isAuthenticated: false,
  keyId: null,
  moderationRole: 'member',
  addressTag: 'tag',
  connectionTime: '2026-01-01T00:00:00.000Z',
  lastSeen: '2026-01-01T00:00:00.000Z',
  isVoiceActive: false,
  ...extra,
});

describe('a member entry as JSON', () => {
  it('is the JSON of the entry members see, without what moderation keeps', () => {
    const entry = member('1');
    expect(roomUserJson(entry)).toBe(JSON.stringify(toRoomUser(entry)));
    expect(JSON.parse(roomUserJson(entry))).not.toHaveProperty('addressTag');
  });

  it('follows every change the memory store makes', async () => {
    const store = new MemoryPresenceStore();
    await store.join(member('1'));
    const [before] = await store.list('r');
    const text = roomUserJson(before!);
    await store.setStatus('r', '1', 'typing');
    await store.setVoiceActive('r', '1', true);
    const [after] = await store.list('r');
    expect(JSON.parse(roomUserJson(after!))).toMatchObject({
      status: 'typing',
      isVoiceActive: true,
    });
    // What was handed out before is unchanged.
    expect(roomUserJson(before!)).toBe(text);
    expect(before!.status).toBe('online');
  });
});
