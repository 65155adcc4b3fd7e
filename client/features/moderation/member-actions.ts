/**
 * Which moderation actions the member menu offers on one member: exactly those the server's
 * permission matrix (shared/moderation/permissions.ts) allows the viewer, so the menu never
 * offers what the server would refuse.
 */
import {
  mayModerate,
  type ModerationAction,
  type ModerationRole,
} from '../../../shared/moderation/permissions.js';
import type { RoomUser } from '../../../shared/protocol/ws/chat.js';

/** One entry of the member menu. */
export interface MemberAction {
  id: 'mute' | 'unmute' | 'kick' | 'ban' | 'ban_permanent' | 'appoint' | 'dismiss';
  label: string;
  /** Minutes for mute and timed bans. */
  minutes?: number;
}

/** Default mute and ban lengths offered by the menu (commands take any length). */
export const MENU_MUTE_MINUTES = 10;
export const MENU_BAN_MINUTES = 60;

/**
 * The member's role as the viewer can tell it: the list shows user, moderator and admin; an
 * admin in the list is treated as a room admin (a service admin is never below one).
 */
export function roleOfListed(user: Pick<RoomUser, 'role'>): ModerationRole {
  if (user.role === 'admin') return 'room_admin';
  return user.role === 'moderator' ? 'moderator' : 'member';
}

/** The actions the viewer may take on `user` (none on themself). */
export function memberActions(
  viewer: ModerationRole,
  user: Pick<RoomUser, 'role' | 'isAuthenticated'>,
  isSelf: boolean,
): MemberAction[] {
  if (isSelf) return [];
  const target = { role: roleOfListed(user), isKeyHolder: user.isAuthenticated };
  const may = (action: ModerationAction) => mayModerate(viewer, action, target);
  const actions: MemberAction[] = [];
  if (may('mute'))
    actions.push({
      id: 'mute',
      label: `Mute ${MENU_MUTE_MINUTES} min`,
      minutes: MENU_MUTE_MINUTES,
    });
  if (may('unmute') || mayModerate(viewer, 'unmute', { ...target, isOwnSanction: true }))
    actions.push({ id: 'unmute', label: 'Unmute' });
  if (may('kick')) actions.push({ id: 'kick', label: 'Kick' });
  if (may('ban'))
    actions.push({ id: 'ban', label: `Ban ${MENU_BAN_MINUTES} min`, minutes: MENU_BAN_MINUTES });
  if (may('ban_permanent')) actions.push({ id: 'ban_permanent', label: 'Ban for good' });
  if (may('appoint_moderator')) actions.push({ id: 'appoint', label: 'Make moderator' });
  if (may('remove_moderator')) actions.push({ id: 'dismiss', label: 'Remove moderator' });
  return actions;
}

/**
 * What a removal from the member menu asks before it is sent (issue 33): who is affected and
 * for how long; null for the actions that need no confirmation (mute, unmute, roles).
 */
export function confirmationOf(action: MemberAction, username: string): string | null {
  switch (action.id) {
    case 'kick':
      return `Kick ${username} out of this channel? They are disconnected from it now and may rejoin after a cool-down.`;
    case 'ban':
      return `Ban ${username} from this channel for ${action.minutes ?? MENU_BAN_MINUTES} minutes? They are removed now and cannot come back until the ban ends.`;
    case 'ban_permanent':
      return `Ban ${username} from this channel for good? They are removed now and cannot come back unless an admin lifts the ban.`;
    default:
      return null;
  }
}
