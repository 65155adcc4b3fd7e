/**
 * What the message list shows: relayed messages and system lines, each with the moment it leaves
 * the screen on this browser's clock (spec 000 §4 "Message display": the client ticks every 1 s
 * and drops a line when its time is up).
 */
import type { Message } from '../../../shared/protocol/ws/chat.js';
import { type DecryptedMessage } from '../../lib/message-cipher.js';

/** `security`: a breach or screenshot alert, shown as a security notice (SecurityNoticeRow). */
export type SystemLevel = 'info' | 'warning' | 'critical' | 'security';

/** The sender name the server gives breach alerts (spec 000 §3 "Message"). */
export const SECURITY_SYSTEM_SENDER = 'SECURITY_SYSTEM';

/** A server notice from SECURITY_SYSTEM: a security notice, not a member's chat row. */
export function isSecurityNotice(message: Pick<Message, 'isSystem' | 'senderUsername'>): boolean {
  return message.isSystem && message.senderUsername === SECURITY_SYSTEM_SENDER;
}

export interface MessageLine {
  kind: 'message';
  id: string;
  message: Message;
  display: DecryptedMessage;
  /** Sent by this browser's connection. */
  isOwn: boolean;
  /** For ordering, on this browser's clock. */
  createdAtMs: number;
  expiresAtMs: number;
}

export interface SystemLine {
  kind: 'system';
  id: string;
  text: string;
  level: SystemLevel;
  /** `server` lines came over the socket; `local` ones answer a chat command on this screen. */
  source: 'server' | 'local';
  /** A line of the /simulation drill: labelled SIMULATION, shown 60 s (spec 000 §4). */
  isSimulated?: boolean;
  createdAtMs: number;
  expiresAtMs: number;
}

export type ChatLine = MessageLine | SystemLine;

/** Whole seconds left, rounded up, never below 0: the `timeLeft` of spec 000 §3. */
export function secondsLeft(line: Pick<ChatLine, 'expiresAtMs'>, now: number): number {
  return Math.max(0, Math.ceil((line.expiresAtMs - now) / 1000));
}
