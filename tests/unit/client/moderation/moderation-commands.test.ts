/**
 * Moderation chat commands (issue 23): each command becomes its frame aimed at the member of the
 * list with that name, and every mistake a clear local line with nothing sent.
 */
import { describe, expect, it } from 'vitest';
import type { RoomUser } from '../../../../shared/protocol/ws/chat.js';
import {
  confirmationOf,
  memberActions,
} from '../../../../client/features/moderation/member-actions.js';
import {
  MODERATION_HELP,
  resolveModerationCommand,
} from '../../../../client/features/moderation/moderation-commands.js';

const user = (username: string, nodeId: string, extra: Partial<RoomUser> = {}): RoomUser => ({
  nodeId,
  username,
  status: 'online',
  role: 'user',
  isAuthenticated: false,
  connectionTime: '2030-01-01T00:00:00.000Z',
  lastSeen: '2030-01-01T00:00:00.000Z',
  isVoiceActive: false,
  secureId: null,
  ...extra,
});

const SELF = 'node_000000000000000a';
const AGENT = 'node_000000000000000b';
const users = [
  user('alice', SELF, { role: 'admin', isAuthenticated: true }),
  user('Agent42', AGENT),
  user('Twin1', 'node_000000000000000c'),
  user('twin1', 'node_000000000000000d'),
];
const run = (text: string) => resolveModerationCommand(text, users, SELF, 'room_admin');

describe('moderation chat commands', () => {
  it('turns each command into its frame, names matched without regard to case', () => {
    expect(run('/kick agent42')).toEqual({
      kind: 'frame',
      frame: { type: 'kick_member', nodeId: AGENT },
    });
    expect(run('/mute Agent42 10')).toEqual({
      kind: 'frame',
      frame: { type: 'mute_member', nodeId: AGENT, minutes: 10 },
    });
    expect(run('/unmute Agent42')).toEqual({
      kind: 'frame',
      frame: { type: 'unmute_member', nodeId: AGENT },
    });
    expect(run('/ban Agent42')).toEqual({
      kind: 'frame',
      frame: { type: 'ban_member', nodeId: AGENT, minutes: null },
    });
    expect(run('/ban Agent42 60')).toEqual({
      kind: 'frame',
      frame: { type: 'ban_member', nodeId: AGENT, minutes: 60 },
    });
    expect(run('/lock')).toEqual({ kind: 'frame', frame: { type: 'lock_room' } });
    expect(run('/UNLOCK')).toEqual({ kind: 'frame', frame: { type: 'unlock_room' } });
    expect(run('/mod Agent42')).toEqual({
      kind: 'frame',
      frame: { type: 'appoint_moderator', nodeId: AGENT },
    });
    expect(run('/unmod Agent42')).toEqual({
      kind: 'frame',
      frame: { type: 'remove_moderator', nodeId: AGENT },
    });
  });

  it('explains every mistake and sends nothing', () => {
    const warning = (text: string) => ({ kind: 'local', text, level: 'warning' });
    expect(run('/kick')).toEqual(warning('Usage: /kick NAME'));
    expect(run('/mute Agent42')).toEqual(
      warning('Usage: /mute NAME MINUTES: MINUTES from 1 to 1440'),
    );
    expect(run('/mute Agent42 0')).toEqual(
      warning('Usage: /mute NAME MINUTES: MINUTES from 1 to 1440'),
    );
    expect(run('/mute Agent42 1441')).toEqual(
      warning('Usage: /mute NAME MINUTES: MINUTES from 1 to 1440'),
    );
    expect(run('/ban Agent42 soon')).toEqual(
      warning('Usage: /ban NAME [MINUTES] (no MINUTES: for good): MINUTES from 1 to 525600'),
    );
    expect(run('/kick Nobody')).toEqual(warning('No member called Nobody in this channel'));
    expect(run('/kick twin1')).toEqual(
      warning('More than one member is called twin1: use the member menu'),
    );
    expect(run('/kick alice')).toEqual(warning('You cannot moderate yourself'));
    expect(run('/lock now')).toEqual(warning('Usage: /lock'));
    expect(run('/kick Agent42 extra')).toEqual(warning('Usage: /kick NAME'));
  });

  it('shows help, and leaves other text and commands alone', () => {
    expect(run('/modhelp')).toEqual({ kind: 'local', text: MODERATION_HELP, level: 'info' });
    expect(MODERATION_HELP).toContain('/mute NAME MINUTES');
    expect(run('/pong')).toBeNull();
    expect(run('hello /kick Agent42')).toBeNull();
  });
});

describe('the member menu', () => {
  it('offers only what the matrix allows the viewer', () => {
    const visitor = { role: 'user' as const, isAuthenticated: false };
    const keyHolder = { role: 'user' as const, isAuthenticated: true };
    const ids = (list: { id: string }[]) => list.map((action) => action.id);
    expect(ids(memberActions('member', visitor, false))).toEqual([]);
    expect(ids(memberActions('moderator', visitor, false))).toEqual(['mute', 'unmute', 'kick']);
    expect(
      ids(memberActions('moderator', { role: 'admin', isAuthenticated: true }, false)),
    ).toEqual([]);
    expect(ids(memberActions('room_admin', visitor, false))).toEqual([
      'mute',
      'unmute',
      'kick',
      'ban',
    ]);
    expect(ids(memberActions('room_admin', keyHolder, false))).toEqual([
      'mute',
      'unmute',
      'kick',
      'ban',
      'ban_permanent',
      'appoint',
    ]);
    expect(
      ids(memberActions('room_admin', { role: 'moderator', isAuthenticated: true }, false)),
    ).toContain('dismiss');
    expect(memberActions('service_admin', keyHolder, true)).toEqual([]);
  });

  it('answers a command the viewer’s role may not run with the reason, and sends nothing', () => {
    const asMember = (text: string) => resolveModerationCommand(text, users, SELF, 'member');
    for (const text of ['/kick agent42', '/mute agent42 5', '/lock', '/ban agent42']) {
      const result = asMember(text);
      expect(result?.kind).toBe('local');
      expect(result).toMatchObject({ level: 'warning' });
    }
    expect(asMember('/kick agent42')).toMatchObject({
      text: '/kick: Only moderators and admins of this channel can do that',
    });
    const asModerator = (text: string) => resolveModerationCommand(text, users, SELF, 'moderator');
    expect(asModerator('/ban agent42')).toMatchObject({
      kind: 'local',
      text: '/ban: Only admins of this channel can do that',
    });
    expect(asModerator('/kick agent42')).toEqual({
      kind: 'frame',
      frame: { type: 'kick_member', nodeId: AGENT },
    });
  });
});

describe('member menu confirmations', () => {
  it('asks before a kick or a ban, naming the member and how long, and not before a mute', () => {
    const offered = memberActions('room_admin', { role: 'user', isAuthenticated: true }, false);
    const question = (id: string) => {
      const action = offered.find((candidate) => candidate.id === id);
      if (!action) throw new Error(`${id} not offered`);
      return confirmationOf(action, 'Agent42');
    };
    expect(question('kick')).toContain('Kick Agent42');
    expect(question('ban')).toMatch(/^Ban Agent42 from this channel for 60 minutes\?/);
    expect(question('ban_permanent')).toContain('for good');
    expect(question('mute')).toBeNull();
    expect(question('appoint')).toBeNull();
  });
});
