/**
 * The room moderation permission matrix (issue 23): who may do what to whom in a room. A pure
 * function, so the server enforces exactly what the operatives list offers, and a unit test can
 * walk every role × action × target.
 *
 * Ranks, lowest first:
 *
 *   member (0)  <  moderator (1)  <  room admin (2)  <  service admin (3)
 *
 * - A member is anyone without a role: an anonymous callsign or a key holder.
 * - A moderator is a key holder appointed by one of the room's admins.
 * - The room admin is the key holder who created the room.
 * - A service admin (an admin-level key) is an admin in every room.
 *
 * Nobody acts on someone of equal or higher rank, so nobody acts on themself and a service admin
 * cannot be kicked, muted or banned from a room.
 */

/** A member's role in one room, as the server derives it. */
export type ModerationRole = 'member' | 'moderator' | 'room_admin' | 'service_admin';

/** Every role, lowest first. */
export const MODERATION_ROLES: readonly ModerationRole[] = [
  'member',
  'moderator',
  'room_admin',
  'service_admin',
];

/** What a moderation frame (or the timer route, or the log route) asks to do. */
export type ModerationAction =
  | 'kick'
  | 'mute'
  | 'unmute'
  | 'delete_message'
  | 'ban'
  | 'ban_permanent'
  | 'unban'
  | 'lock'
  | 'unlock'
  | 'appoint_moderator'
  | 'remove_moderator'
  | 'set_timer'
  | 'view_log';

/** Every action. */
export const MODERATION_ACTIONS: readonly ModerationAction[] = [
  'kick',
  'mute',
  'unmute',
  'delete_message',
  'ban',
  'ban_permanent',
  'unban',
  'lock',
  'unlock',
  'appoint_moderator',
  'remove_moderator',
  'set_timer',
  'view_log',
];

/** Actions aimed at a member (the others act on the room or on a stored ban). */
export const TARGETED_ACTIONS: ReadonlySet<ModerationAction> = new Set([
  'kick',
  'mute',
  'unmute',
  'delete_message',
  'ban',
  'ban_permanent',
  'appoint_moderator',
  'remove_moderator',
]);

/** The member an action is aimed at. */
export interface ModerationTarget {
  role: ModerationRole;
  /** Anonymous callsigns have no stable identity: they cannot hold a role or be banned for good. */
  isKeyHolder: boolean;
  /** For unmute: the mute was imposed by the actor (a moderator may clear their own mistakes). */
  isOwnSanction?: boolean;
}

/** The answer: allowed, or the reason shown to the actor in an `error` frame. */
export type ModerationDecision = { allowed: true } | { allowed: false; reason: string };

/** Reasons, as the actor reads them. */
export const MODERATION_DENIED = {
  notModerator: 'Only moderators and admins of this channel can do that',
  notAdmin: 'Only admins of this channel can do that',
  rank: 'You cannot act on a member of equal or higher role',
  noTarget: 'Choose a member to act on',
  anonymousRole: 'Anonymous callsigns cannot hold a role',
  anonymousPermanent: 'Anonymous visitors can only be banned for a time',
  alreadyModerator: 'That member already holds a role in this channel',
  notAModerator: 'That member is not a moderator of this channel',
  notOwnMute: 'Moderators can only lift their own mutes',
} as const;

/** A role's rank: higher outranks lower. */
export function rankOf(role: ModerationRole): number {
  return MODERATION_ROLES.indexOf(role);
}

/** The role the member list shows (spec 000 §3 "Room user": user, moderator, admin). */
export function displayRole(role: ModerationRole): 'user' | 'moderator' | 'admin' {
  if (role === 'member') return 'user';
  return role === 'moderator' ? 'moderator' : 'admin';
}

const allow: ModerationDecision = { allowed: true };
const deny = (reason: string): ModerationDecision => ({ allowed: false, reason });

/**
 * May `actor` do `action` (to `target`, for the targeted actions)? Pure and total: every
 * combination has an answer.
 */
export function decideModeration(
  actor: ModerationRole,
  action: ModerationAction,
  target: ModerationTarget | null = null,
): ModerationDecision {
  const rank = rankOf(actor);
  const needs = (minimum: number) =>
    rank >= minimum
      ? null
      : deny(minimum >= 2 ? MODERATION_DENIED.notAdmin : MODERATION_DENIED.notModerator);

  switch (action) {
    case 'lock':
    case 'unlock':
    case 'unban':
    case 'view_log':
      return needs(2) ?? allow;
    case 'set_timer':
      return needs(1) ?? allow;
    default:
      break;
  }

  // Targeted actions from here on.
  const missing = needs(
    action === 'ban' || action === 'ban_permanent' || isRoleAction(action) ? 2 : 1,
  );
  if (missing) return missing;
  if (!target) return deny(MODERATION_DENIED.noTarget);
  if (isRoleAction(action)) {
    if (!target.isKeyHolder) return deny(MODERATION_DENIED.anonymousRole);
    if (rank <= rankOf(target.role)) return deny(MODERATION_DENIED.rank);
    if (action === 'appoint_moderator' && target.role !== 'member')
      return deny(MODERATION_DENIED.alreadyModerator);
    if (action === 'remove_moderator' && target.role !== 'moderator')
      return deny(MODERATION_DENIED.notAModerator);
    return allow;
  }
  if (rank <= rankOf(target.role)) return deny(MODERATION_DENIED.rank);
  if (action === 'ban_permanent' && !target.isKeyHolder)
    return deny(MODERATION_DENIED.anonymousPermanent);
  if (action === 'unmute' && rank < 2 && !target.isOwnSanction)
    return deny(MODERATION_DENIED.notOwnMute);
  return allow;
}

function isRoleAction(action: ModerationAction): boolean {
  return action === 'appoint_moderator' || action === 'remove_moderator';
}

/** True when the decision allows the action (for menus that only show what is allowed). */
export function mayModerate(
  actor: ModerationRole,
  action: ModerationAction,
  target: ModerationTarget | null = null,
): boolean {
  return decideModeration(actor, action, target).allowed;
}
