/**
 * Moderation chat commands (issue 23): `/kick NAME`, `/mute NAME MINUTES`, `/ban NAME [MINUTES]`,
 * `/lock`, `/unlock`, `/mod NAME`, `/unmod NAME`, and `/modhelp`. A command becomes one moderation
 * frame aimed at a member of the list by name; a mistake becomes a clear local line and nothing
 * is sent. The server decides in the end: a refusal comes back as an error.
 */
import { BAN_MAX_MINUTES, MUTE_MAX_MINUTES } from '../../../shared/constants.js';
import type { RoomUser } from '../../../shared/protocol/ws/chat.js';
import {
  MODERATION_DENIED,
  decideModeration,
  type ModerationAction,
  type ModerationRole,
} from '../../../shared/moderation/permissions.js';
import type { ClientFrame } from '../../../shared/protocol/ws/index.js';

/** What the help command shows, one command a line. */
export const MODERATION_HELP = [
  'MODERATION COMMANDS (moderators and admins of this channel):',
  '/kick NAME: remove NAME from the channel; they may rejoin after a cool-down',
  `/mute NAME MINUTES: drop NAME's messages for 1 to ${MUTE_MAX_MINUTES} minutes`,
  '/unmute NAME: lift a mute',
  '/ban NAME [MINUTES]: admins: remove NAME and keep them out, for MINUTES or for good',
  '/lock, /unlock: admins: new members need the access code while locked',
  '/mod NAME, /unmod NAME: admins: appoint or remove a moderator (key holders only)',
].join('\n');

export type ModerationCommandResult =
  | { kind: 'frame'; frame: ClientFrame }
  | { kind: 'local'; text: string; level: 'info' | 'warning' };

const USAGE: Record<string, string> = {
  '/kick': 'Usage: /kick NAME',
  '/mute': 'Usage: /mute NAME MINUTES',
  '/unmute': 'Usage: /unmute NAME',
  '/ban': 'Usage: /ban NAME [MINUTES] (no MINUTES: for good)',
  '/mod': 'Usage: /mod NAME',
  '/unmod': 'Usage: /unmod NAME',
};

const warn = (text: string): ModerationCommandResult => ({ kind: 'local', text, level: 'warning' });

/** The permission each command needs (shared/moderation/permissions.ts). */
const ACTION_OF: Record<string, ModerationAction> = {
  '/lock': 'lock',
  '/unlock': 'unlock',
  '/kick': 'kick',
  '/mute': 'mute',
  '/unmute': 'unmute',
  '/ban': 'ban',
  '/mod': 'appoint_moderator',
  '/unmod': 'remove_moderator',
};

/**
 * The moderation command in `text` (trimmed), or null when it is none. `users` is the member
 * list; `selfNodeId` this tab's node; `role` the viewer's role in the room: a command the role
 * may not run is answered here with the reason and never sent (issue 33).
 */
export function resolveModerationCommand(
  text: string,
  users: readonly RoomUser[],
  selfNodeId: string | null,
  role: ModerationRole,
): ModerationCommandResult | null {
  if (!text.startsWith('/')) return null;
  const [rawCommand = '', ...args] = text.split(/\s+/);
  const command = rawCommand.toLowerCase();
  const action = ACTION_OF[command];
  if (action) {
    const decision = decideModeration(role, action);
    if (!decision.allowed && decision.reason !== MODERATION_DENIED.noTarget)
      return warn(`${command}: ${decision.reason}`);
  }
  switch (command) {
    case '/modhelp':
      return { kind: 'local', text: MODERATION_HELP, level: 'info' };
    case '/lock':
    case '/unlock':
      return args.length > 0
        ? warn(`Usage: ${command}`)
        : { kind: 'frame', frame: { type: command === '/lock' ? 'lock_room' : 'unlock_room' } };
    case '/kick':
    case '/unmute':
    case '/mod':
    case '/unmod':
    case '/mute':
    case '/ban':
      break;
    default:
      return null;
  }
  const usage = USAGE[command] ?? '';
  const [name, minutesText, ...rest] = args;
  if (!name || rest.length > 0) return warn(usage);
  const target = findMember(users, name);
  if (target === 'ambiguous')
    return warn(`More than one member is called ${name}: use the member menu`);
  if (!target) return warn(`No member called ${name} in this channel`);
  if (target.nodeId === selfNodeId) return warn('You cannot moderate yourself');
  const nodeId = target.nodeId;

  switch (command) {
    case '/kick':
      return minutesText ? warn(usage) : { kind: 'frame', frame: { type: 'kick_member', nodeId } };
    case '/unmute':
      return minutesText
        ? warn(usage)
        : { kind: 'frame', frame: { type: 'unmute_member', nodeId } };
    case '/mod':
      return minutesText
        ? warn(usage)
        : { kind: 'frame', frame: { type: 'appoint_moderator', nodeId } };
    case '/unmod':
      return minutesText
        ? warn(usage)
        : { kind: 'frame', frame: { type: 'remove_moderator', nodeId } };
    case '/mute': {
      const minutes = parseMinutes(minutesText, MUTE_MAX_MINUTES);
      if (minutes === null) return warn(`${usage}: MINUTES from 1 to ${MUTE_MAX_MINUTES}`);
      return { kind: 'frame', frame: { type: 'mute_member', nodeId, minutes } };
    }
    default: {
      if (minutesText === undefined)
        return { kind: 'frame', frame: { type: 'ban_member', nodeId, minutes: null } };
      const minutes = parseMinutes(minutesText, BAN_MAX_MINUTES);
      if (minutes === null) return warn(`${usage}: MINUTES from 1 to ${BAN_MAX_MINUTES}`);
      return { kind: 'frame', frame: { type: 'ban_member', nodeId, minutes } };
    }
  }
}

function parseMinutes(text: string | undefined, max: number): number | null {
  if (text === undefined || !/^\d{1,7}$/.test(text)) return null;
  const minutes = Number(text);
  return minutes >= 1 && minutes <= max ? minutes : null;
}

/** The one member called `name` (case-insensitive), 'ambiguous', or null. */
function findMember(users: readonly RoomUser[], name: string): RoomUser | 'ambiguous' | null {
  const matches = users.filter((user) => user.username.toLowerCase() === name.toLowerCase());
  if (matches.length > 1) return 'ambiguous';
  return matches[0] ?? null;
}
