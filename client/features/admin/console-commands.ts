/**
 * The admin console of the admin panel (spec 001 §2 "Console", §6): what each command line means,
 * and the socket frame a command becomes. Pure, so parsing is unit-tested without a browser.
 *
 * Socket commands carry the admin's bearer session token as `sessionToken` (spec 001 §7); the
 * server answers `admin_error` when it is not an admin's. HTTP commands (keys, revoke, audit) use
 * the same token through the admin API.
 */
import { KeyPermissionLevelSchema } from '../../../shared/crypto/key-file-schema.js';
import { KeyIdSchema } from '../../../shared/ids.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import { type ClientFrame } from '../../../shared/protocol/ws/index.js';
import {
  checkKeyGenerationForm,
  DEFAULT_VALIDITY_INPUT,
  type KeyGenerationRequest,
} from './key-generation.js';

/** Longest broadcast text or shutdown reason the server accepts (AdminBroadcastFrameSchema). */
export const CONSOLE_TEXT_MAX_LENGTH = 2000;

export type ConsoleCommand =
  | { name: 'broadcast'; text: string }
  | { name: 'system'; text: string }
  | { name: 'security'; text: string }
  | { name: 'users' }
  | { name: 'shutdown'; reason: string }
  | { name: 'restore' }
  | { name: 'keys' }
  | { name: 'revoke'; keyId: string }
  | { name: 'audit' }
  | { name: 'keygen'; request: KeyGenerationRequest }
  | { name: 'tor'; action: TorConsoleAction }
  | { name: 'help' }
  | { name: 'clear' };

export type ConsoleCommandName = ConsoleCommand['name'];

/** The Tor controls of the console (spec 001 §2 "Tor Network", §6 "Tor controls"). */
export const TOR_CONSOLE_ACTIONS = [
  'status',
  'start',
  'stop',
  'restart',
  'logs',
  'connect',
  'disconnect',
  'test',
] as const;
export type TorConsoleAction = (typeof TOR_CONSOLE_ACTIONS)[number];

export interface ConsoleCommandHelp {
  name: ConsoleCommandName;
  usage: string;
  description: string;
  /** How the command reaches the server. */
  via: 'socket' | 'http' | 'local';
}

/** Every console command, in the order `help` lists them. */
export const CONSOLE_COMMANDS: readonly ConsoleCommandHelp[] = [
  {
    name: 'broadcast',
    usage: 'broadcast <text>',
    description: 'Admin message to every connected client',
    via: 'socket',
  },
  {
    name: 'system',
    usage: 'system <text>',
    description: 'System message to every connected client',
    via: 'socket',
  },
  {
    name: 'security',
    usage: 'security <text>',
    description: 'Critical security alert to every connected client',
    via: 'socket',
  },
  { name: 'users', usage: 'users', description: 'List connected users', via: 'socket' },
  {
    name: 'shutdown',
    usage: 'shutdown <reason>',
    description: 'Emergency shutdown: every socket is told and closed',
    via: 'socket',
  },
  { name: 'restore', usage: 'restore', description: 'End an emergency shutdown', via: 'socket' },
  { name: 'keys', usage: 'keys', description: 'List registered keys', via: 'http' },
  {
    name: 'revoke',
    usage: 'revoke <keyId>',
    description: 'Revoke a key: its sessions end at once',
    via: 'http',
  },
  {
    name: 'keygen',
    usage: 'keygen <username> [days] [level]',
    description:
      'Generate a key in this browser (days: 0 = never, default 365; level: admin, user, observer or guest, default user), register its public part and download the file',
    via: 'http',
  },
  {
    name: 'tor',
    usage: `tor <${TOR_CONSOLE_ACTIONS.join('|')}>`,
    description: 'Tor service: status, start, stop, restart, logs, connect, disconnect, test',
    via: 'http',
  },
  { name: 'audit', usage: 'audit', description: 'Show the latest audit entries', via: 'http' },
  { name: 'help', usage: 'help', description: 'List the commands', via: 'local' },
  { name: 'clear', usage: 'clear', description: 'Clear the console output', via: 'local' },
];

export type ConsoleParseResult =
  { ok: true; command: ConsoleCommand } | { ok: false; error: string };

const usage = (name: ConsoleCommandName): string =>
  `Usage: ${CONSOLE_COMMANDS.find((command) => command.name === name)?.usage ?? name}`;

function textArgument(name: 'broadcast' | 'system' | 'security', rest: string): ConsoleParseResult {
  if (rest === '') return { ok: false, error: usage(name) };
  if (rest.length > CONSOLE_TEXT_MAX_LENGTH) {
    return { ok: false, error: `Text too long: at most ${CONSOLE_TEXT_MAX_LENGTH} characters` };
  }
  return { ok: true, command: { name, text: rest } };
}

function noArgument(
  name: 'users' | 'restore' | 'keys' | 'audit' | 'help' | 'clear',
  rest: string,
): ConsoleParseResult {
  return rest === '' ? { ok: true, command: { name } } : { ok: false, error: usage(name) };
}

/** `keygen <username> [days] [level]`, checked with the key generation form's rules. */
function keygenArgument(rest: string): ConsoleParseResult {
  const words = rest === '' ? [] : rest.split(/\s+/);
  if (words.length === 0 || words.length > 3) return { ok: false, error: usage('keygen') };
  const [username = '', days = DEFAULT_VALIDITY_INPUT, level = 'user'] = words;
  const parsedLevel = KeyPermissionLevelSchema.safeParse(level.toLowerCase());
  if (!parsedLevel.success) return { ok: false, error: usage('keygen') };
  const checked = checkKeyGenerationForm({ username, validityDays: days, level: parsedLevel.data });
  return checked.ok
    ? { ok: true, command: { name: 'keygen', request: checked.request } }
    : { ok: false, error: `${checked.problem.title}: ${checked.problem.description}` };
}

/**
 * What a console line asks for; null for an empty line. A leading `/` is allowed, command names
 * ignore letter case, and the rest of the line (trimmed) is the argument.
 */
export function parseConsoleCommand(line: string): ConsoleParseResult | null {
  const trimmed = line.trim().replace(/^\//, '');
  if (trimmed === '') return null;
  const match = /^(\S+)\s*([\s\S]*)$/.exec(trimmed);
  const word = (match?.[1] ?? '').toLowerCase();
  const rest = (match?.[2] ?? '').trim();
  switch (word) {
    case 'broadcast':
    case 'system':
    case 'security':
      return textArgument(word, rest);
    case 'shutdown':
      if (rest === '') return { ok: false, error: TEXT.shutdownReasonRequired };
      if (rest.length > CONSOLE_TEXT_MAX_LENGTH) {
        return {
          ok: false,
          error: `Reason too long: at most ${CONSOLE_TEXT_MAX_LENGTH} characters`,
        };
      }
      return { ok: true, command: { name: 'shutdown', reason: rest } };
    case 'revoke':
      return KeyIdSchema.safeParse(rest).success
        ? { ok: true, command: { name: 'revoke', keyId: rest } }
        : { ok: false, error: `${usage('revoke')} (SCK followed by 32 hex digits)` };
    case 'keygen':
      return keygenArgument(rest);
    case 'tor': {
      const action = TOR_CONSOLE_ACTIONS.find((candidate) => candidate === rest.toLowerCase());
      return action
        ? { ok: true, command: { name: 'tor', action } }
        : { ok: false, error: usage('tor') };
    }
    case 'users':
    case 'restore':
    case 'keys':
    case 'audit':
    case 'help':
    case 'clear':
      return noArgument(word, rest);
    default:
      // Only the command word is echoed, shortened: never the rest of what was typed.
      return {
        ok: false,
        error: `Unknown command: ${word.slice(0, 24)}${word.length > 24 ? '…' : ''}. Type help for the list.`,
      };
  }
}

/** The socket frame of a socket command, or null for HTTP and local commands. */
export function consoleCommandFrame(
  command: ConsoleCommand,
  sessionToken: string,
): ClientFrame | null {
  switch (command.name) {
    case 'broadcast':
      return { type: 'admin_broadcast', sessionToken, message: command.text };
    case 'system':
      return { type: 'system_message', sessionToken, message: command.text };
    case 'security':
      return { type: 'security_broadcast', sessionToken, message: command.text };
    case 'users':
      return { type: 'admin_list_users', sessionToken };
    case 'shutdown':
      return { type: 'emergency_shutdown', sessionToken, reason: command.reason };
    case 'restore':
      return { type: 'restore_service', sessionToken };
    default:
      return null;
  }
}
