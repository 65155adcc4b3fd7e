import { describe, expect, it } from 'vitest';
import { MemberListBytes } from '../../../server/features/rooms/member-list.js';
import { roomUserJson, type PresenceMember } from '../../../server/features/rooms/presence.js';

const member = (index: number, status: PresenceMember['status'] = 'online'): PresenceMember => ({
  roomId: 'r',
  nodeId: `node_${index}`,
  username: `Agent${index}é`,
  status,
  role: 'user',
  isAuthenticated: false,
  keyId: null,
  addressTag: null,
  connectionTime: '2026-01-01T00:00:00.000Z',
  lastSeen: '2026-01-01T00:00:00.000Z',
  isVoiceActive: false,
});

const expected = (members: PresenceMember[]) => members.map(roomUserJson).join(',');

describe('MemberListBytes', () => {
  it('gives the joined entries of the current list as the room grows, changes and shrinks', () => {
    const lists = new MemberListBytes();
    let members: PresenceMember[] = [];
    const views: Array<[Buffer, string]> = [];
    for (let index = 0; index < 60; index += 1) {
      members = [...members, member(index)];
      const view = lists.entries('r', members);
      expect(view.toString('utf8')).toBe(expected(members));
      views.push([view, expected(members)]);
    }
    // A member changed in place (a new object at the same position), then one left.
    members = members.map((m, index) => (index === 7 ? member(7, 'typing') : m));
    expect(lists.entries('r', members).toString('utf8')).toBe(expected(members));
    members = members.filter((_, index) => index !== 3);
    expect(lists.entries('r', members).toString('utf8')).toBe(expected(members));
    members = [...members, member(99)];
    expect(lists.entries('r', members).toString('utf8')).toBe(expected(members));
    // Views handed out earlier still hold what they held.
    for (const [view, text] of views) expect(view.toString('utf8')).toBe(text);
    expect(lists.entries('other', []).toString('utf8')).toBe('');
  });

  it('builds the list again after a drop', () => {
    const lists = new MemberListBytes();
    const members = [member(1), member(2)];
    lists.entries('r', members);
    lists.drop('r');
    expect(lists.entries('r', members).toString('utf8')).toBe(expected(members));
  });
});
