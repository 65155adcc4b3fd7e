/**
 * What the message list shows: relayed messages and system lines, each with the moment it leaves
 * the screen on this browser's clock (spec 000 §4 "Message display": the client ticks every 1 s
 * and drops a line when its time is up).
 */
import type { Message } from '../../../shared/protocol/ws/chat.js';
import { type DecryptedMessage } from '../../lib/message-cipher.js';
import { DESTROYED_IMAGE_DISPLAY_MS } from '../images/index.js';

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

/** A message carrying an image (as the server marks it, or as its decrypted payload says). */
export function hasImage(line: ChatLine): boolean {
  return (
    line.kind === 'message' && (line.message.hasImage || line.display.payload?.image !== undefined)
  );
}

/**
 * When the line leaves the screen: at its expiry, except an image message, which shows IMAGE
 * DESTROYED for 30 s after it (spec 000 §4 "Image") and goes then.
 */
export function lineLeavesAtMs(line: ChatLine): number {
  return line.expiresAtMs + (hasImage(line) ? DESTROYED_IMAGE_DISPLAY_MS : 0);
}

/** Still on screen at `now`. */
export function isLineShown(line: ChatLine, now: number): boolean {
  return now < lineLeavesAtMs(line);
}

/**
 * The lines after the server said `messageIds` expired: those go, except image messages, which
 * are destroyed now (if not already) and stay 30 s showing IMAGE DESTROYED.
 */
export function afterExpiry(
  lines: ChatLine[],
  messageIds: readonly string[],
  now: number,
): ChatLine[] {
  const ids = new Set(messageIds);
  const next = lines.flatMap((line) => {
    if (!ids.has(line.id)) return [line];
    if (!hasImage(line)) return [];
    return line.expiresAtMs <= now ? [line] : [{ ...line, expiresAtMs: now }];
  });
  const isSame = next.length === lines.length && next.every((line, index) => line === lines[index]);
  return isSame ? lines : next;
}
