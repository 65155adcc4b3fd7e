/**
 * Chat commands typed into the message input (spec 000 §2 "Chat commands", §5, §6). A recognised
 * command is handled on this screen and never sent; anything else, including an unknown `/word`,
 * goes out as an ordinary message.
 */
import { TEXT } from '../../../shared/protocol/errors.js';
import { SIMULATION_TEXT } from './simulation.js';

export interface ChatCommandContext {
  /** The visitor holds a key and a session. */
  isKeyHolder: boolean;
  /** The session's permission level is admin. */
  isAdmin: boolean;
}

export type ChatCommandResult =
  /** Show a system line on this screen only. */
  | { kind: 'local'; text: string; level: 'info' | 'warning' }
  /** Show the theme debug report as a system line. */
  | { kind: 'debug-theme' }
  | { kind: 'navigate'; to: string }
  /** An admin asked for the admin panel: the page decides what that opens. */
  | { kind: 'admin' }
  /** A key holder started the /simulation drill (simulation.ts). */
  | { kind: 'simulation' };

/** What `text` (already trimmed) asks for, or null when it is an ordinary message. */
export function resolveChatCommand(
  text: string,
  context: ChatCommandContext,
): ChatCommandResult | null {
  if (!text.startsWith('/')) return null;
  const [command = ''] = text.split(/\s+/, 1);
  switch (command.toLowerCase()) {
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
      return null;
  }
}
