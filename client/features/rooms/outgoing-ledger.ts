/**
 * This tab's messages on their way (issue 35): a `send_message` is acknowledged only by its own
 * echo, the `new_message` the relay sends back. Until then it is in the ledger; an `error` frame
 * for `send_message` (the relay is away, a held-bytes budget is full, …) refuses the oldest one,
 * since a connection's refusals come back in the order its messages went out; one still waiting
 * when the connection drops is settled by the history of the next `room_joined` (its ciphertext
 * is there: it was relayed; it is not: it was not). What the ledger gives back is shown NOT SENT
 * with RESEND, never as sent.
 */
import type { MessagePayload } from '../../../shared/protocol/message-payload.js';

/** What identifies a message on the wire: its ciphertext (or flagged plaintext), as relayed. */
interface WireContent {
  content: string;
  encryptedContent?: string | null;
}

export interface InFlightSend {
  id: string;
  payload: MessagePayload;
  isStealthMode: boolean;
}

function wireKey(sent: WireContent): string {
  return `${sent.encryptedContent ?? ''}\u0000${sent.content}`;
}

export class OutgoingLedger {
  private entries: (InFlightSend & { key: string })[] = [];

  /** A message left on the socket. */
  sent(send: InFlightSend, wire: WireContent): void {
    this.entries.push({ ...send, key: wireKey(wire) });
  }

  /** This tab's own `new_message`: its message was relayed. True when it was one of the ledger's. */
  echoed(message: WireContent): boolean {
    const key = wireKey(message);
    const index = this.entries.findIndex((entry) => entry.key === key);
    if (index < 0) return false;
    this.entries.splice(index, 1);
    return true;
  }

  /** An `error` answered a `send_message`: the oldest message on its way was not relayed. */
  refused(): InFlightSend | null {
    const oldest = this.entries.shift();
    return oldest
      ? { id: oldest.id, payload: oldest.payload, isStealthMode: oldest.isStealthMode }
      : null;
  }

  /**
   * The room was joined again after a lost connection: what the history holds was relayed; the
   * rest is given back as not sent (and leaves the ledger).
   */
  settle(history: readonly WireContent[]): InFlightSend[] {
    const relayed = new Set(history.map(wireKey));
    const lost = this.entries.filter((entry) => !relayed.has(entry.key));
    this.entries = [];
    return lost.map(({ id, payload, isStealthMode }) => ({ id, payload, isStealthMode }));
  }

  /** The room was left: nothing of it is tracked any longer. */
  clear(): void {
    this.entries = [];
  }

  get size(): number {
    return this.entries.length;
  }
}
