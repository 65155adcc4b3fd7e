/**
 * The room moderation permission matrix (issue 23), walked exhaustively: every role × every
 * action × every target role, for key holders and anonymous visitors.
 */
import { describe, expect, it } from 'vitest';
import {
  decideModeration,
  displayRole,
  MODERATION_ACTIONS,
  MODERATION_DENIED,
  MODERATION_ROLES,
  rankOf,
  TARGETED_ACTIONS,
  type ModerationAction,
  type ModerationRole,
} from '../../../shared/moderation/permissions.js';

/** The rule, written out independently of the implementation. */
function expected(
  actor: ModerationRole,
  action: ModerationAction,
  target: { role: ModerationRole; isKeyHolder: boolean; isOwnSanction: boolean } | null,
): boolean {
  const rank = rankOf(actor);
  const adminOnly = [
    'ban',
    'ban_permanent',
    'unban',
    'lock',
    'unlock',
    'appoint_moderator',
    'remove_moderator',
    'view_log',
  ];
  if (rank < (adminOnly.includes(action) ? 2 : 1)) return false;
  if (!TARGETED_ACTIONS.has(action)) return true;
  if (!target) return false;
  if (rank <= rankOf(target.role)) return false;
  switch (action) {
    case 'appoint_moderator':
      return target.isKeyHolder && target.role === 'member';
    case 'remove_moderator':
      return target.isKeyHolder && target.role === 'moderator';
    case 'ban_permanent':
      return target.isKeyHolder;
    case 'unmute':
      return rank >= 2 || target.isOwnSanction;
    default:
      return true;
  }
}

describe('the moderation permission matrix', () => {
  const cases: [ModerationRole, ModerationAction, ModerationRole, boolean, boolean][] = [];
  for (const actor of MODERATION_ROLES)
    for (const action of MODERATION_ACTIONS)
      for (const targetRole of MODERATION_ROLES)
        for (const isKeyHolder of [true, false])
          for (const isOwnSanction of [true, false])
            cases.push([actor, action, targetRole, isKeyHolder, isOwnSanction]);

  it('covers every role, action and target (4 × 13 × 4 × 2 × 2)', () => {
    expect(cases).toHaveLength(4 * 13 * 4 * 2 * 2);
  });

  it.each(cases)(
    '%s → %s on a %s (key holder: %s, own sanction: %s)',
    (actor, action, targetRole, isKeyHolder, isOwnSanction) => {
      const target = { role: targetRole, isKeyHolder, isOwnSanction };
      const decision = decideModeration(actor, action, target);
      expect(decision.allowed).toBe(expected(actor, action, target));
      if (!decision.allowed) expect(Object.values(MODERATION_DENIED)).toContain(decision.reason);
    },
  );

  it('refuses a targeted action without a target, and never lets anyone act on an equal', () => {
    for (const action of TARGETED_ACTIONS)
      expect(decideModeration('service_admin', action, null).allowed).toBe(false);
    for (const role of MODERATION_ROLES)
      for (const action of TARGETED_ACTIONS)
        expect(decideModeration(role, action, { role, isKeyHolder: true }).allowed).toBe(false);
  });

  it('never lets anyone kick, mute or ban a service admin', () => {
    for (const role of MODERATION_ROLES)
      for (const action of ['kick', 'mute', 'ban', 'ban_permanent'] as const)
        expect(
          decideModeration(role, action, { role: 'service_admin', isKeyHolder: true }).allowed,
        ).toBe(false);
  });

  it('names the reasons a member reads', () => {
    expect(decideModeration('member', 'kick', { role: 'member', isKeyHolder: false })).toEqual({
      allowed: false,
      reason: 'Only moderators and admins of this channel can do that',
    });
    expect(decideModeration('moderator', 'ban', { role: 'member', isKeyHolder: false })).toEqual({
      allowed: false,
      reason: 'Only admins of this channel can do that',
    });
    expect(
      decideModeration('room_admin', 'ban_permanent', { role: 'member', isKeyHolder: false }),
    ).toEqual({ allowed: false, reason: 'Anonymous visitors can only be banned for a time' });
  });

  it('shows the spec roles in the member list', () => {
    expect(MODERATION_ROLES.map(displayRole)).toEqual(['user', 'moderator', 'admin', 'admin']);
  });
});
