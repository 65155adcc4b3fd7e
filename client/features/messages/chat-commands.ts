/**
 * Chat commands typed into the message input (spec 000 §2 "Chat commands", §5, §6; issue 33). A
 * slash followed by a letter is a command and is never sent: a known one is handled on this
 * screen, an unknown one or one this user may not run is answered here. `//text` sends `/text`.
 * The moderation commands are read first (client/features/moderation/moderation-commands.ts).
 */
import { TEXT } from '../../../shared/protocol/errors.js';
import { SIMULATION_TEXT } from './simulation.js';

export interface ChatCommandContext {
  /** The visitor holds a key and a session. */
  isKeyHolder: boolean;
  /** The session's permission level is admin. */
  isAdmin: boolean;
  /** The viewer moderates this channel (moderator, room admin or service admin). */
  isModerator?: boolean;
}

/** Who may run a command. */
type Audience = 'everyone' | 'key-holder' | 'admin';

/** Every command of the chat input, in the order /help lists them. */
export const CHAT_COMMANDS: readonly { name: string; audience: Audience; summary: string }[] = [
  { name: '/help', audience: 'everyone', summary: 'the commands you can use here' },
  { name: '/get-key', audience: 'everyone', summary: 'buy a key file' },
  { name: '/debugtheme', audience: 'everyone', summary: "the theme's debug report" },
  { name: '/pong', audience: 'key-holder', summary: 'a game of Quantum Pong' },
  { name: '/simulation', audience: 'key-holder', summary: 'a drill of the security readouts' },
  { name: '/admin', audience: 'admin', summary: 'the admin panel' },
];

const mayRun = (audience: Audience, context: ChatCommandContext): boolean =>
  audience === 'everyone' ||
  (audience === 'key-holder' && context.isKeyHolder) ||
  (context.isKeyHolder && context.isAdmin);

/** What /help shows to this user: only what they may run. */
export function describeCommands(context: ChatCommandContext): string {
  const lines = CHAT_COMMANDS.filter((command) => mayRun(command.audience, context)).map(
    (command) => `${command.name}: ${command.summary}`,
  );
  if (context.isModerator) lines.push('/modhelp: the moderation commands of this channel');
  return ['COMMANDS:', ...lines, '//text: send a message that starts with a slash'].join('\n');
}

/** The answer to a command nobody has. */
export function unknownCommandText(command: string): string {
  return `Unknown command ${command}. Type /help for the commands you can use.`;
}

/** A slash followed by a letter: what is read as a command. */
const COMMAND = /^\/[a-z]/i;

export type ChatCommandResult =
  /** Show a system line on this screen only. */
  | { kind: 'local'; text: string; level: 'info' | 'warning' }
  /** Show the theme debug report as a system line. */
  | { kind: 'debug-theme' }
  | { kind: 'navigate'; to: string }
  /** An admin asked for the admin panel: the page decides what that opens. */
  | { kind: 'admin' }
  /** A key holder started the /simulation drill (simulation.ts). */
  | { kind: 'simulation' }
  /** `//text`: send `/text` as an ordinary message. */
  | { kind: 'send'; text: string };

/** What `text` (already trimmed) asks for, or null when it is an ordinary message. */
export function resolveChatCommand(
  text: string,
  context: ChatCommandContext,
): ChatCommandResult | null {
  if (text.startsWith('//')) return { kind: 'send', text: text.slice(1) };
  if (!COMMAND.test(text)) return null;
  const [command = ''] = text.split(/\s+/, 1);
  switch (command.toLowerCase()) {
    case '/help':
      return { kind: 'local', text: describeCommands(context), level: 'info' };
    case '/debugtheme':
      return { kind: 'debug-theme' };
    case '/pong':
      return context.isKeyHolder
        ? { kind: 'navigate', to: '/pong' }
        : { kind: 'local', text: TEXT.pongRequiresKey, level: 'warning' };
    case '/admin':
      return context.isKeyHolder && context.isAdmin
        ? { kind: 'admin' }
        : { kind: 'local', text: TEXT.adminAccessDenied, level: 'warning' };
    case '/simulation':
      return context.isKeyHolder
        ? { kind: 'simulation' }
        : { kind: 'local', text: SIMULATION_TEXT.refused, level: 'warning' };
    case '/get-key':
      return { kind: 'navigate', to: '/get-key' };
    default:
      return { kind: 'local', text: unknownCommandText(command), level: 'warning' };
  }
}
