/**
 * Which of the server's `error` frames the chat room shows after it was put out of its room.
 *
 * A removal (kick, ban) or a destroyed room can overtake frames this tab sent while it was still
 * inside: its key agreement (`key_announce`, `sender_key`), typing. The server takes the socket
 * out first and then answers those frames with an error ("Join a room before exchanging keys"),
 * so the answers arrive just after `removed_from_room`. The removal notice already says why the
 * tab is out; shown as a toast, such an answer would replace the removal's (one toast at a time)
 * with a CHANNEL ERROR that misleads. A refused `send_message` is not one of these: the outgoing
 * ledger shows it NOT SENT before this is asked. A refused `join_room` (a new try, after
 * RECONNECT lifted the hold) and an error that names no frame are shown as ever.
 */
import type { ReconnectHold } from '../../lib/realtime/chat-socket.js';

/** Holds that mean the room itself put this tab out, with its own notice. */
const PUT_OUT: ReadonlySet<ReconnectHold> = new Set(['removed', 'destroyed']);

/**
 * Whether an error answering `frameType` only echoes a removal already shown (`hold` is the
 * socket's hold when the error arrives): then it is not shown.
 */
export function isEchoOfRemoval(
  frameType: string | undefined,
  hold: ReconnectHold | null,
): boolean {
  if (hold === null || !PUT_OUT.has(hold)) return false;
  return frameType !== undefined && frameType !== 'join_room';
}
