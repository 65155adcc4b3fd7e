/**
 * This tab's messages on their way (issue 35): a `send_message` is acknowledged only by its own
 * echo, the `new_message` the relay sends back. Until then it is in the ledger. An `error` frame
 * for `send_message` (the relay is away, a held-bytes budget is full, …) carries no message id,
 * so it refuses the oldest one. Answers to one socket's frames may overtake each other
 * (docs/architecture.md): when the echo of a message taken as refused arrives after all, that
 * message was relayed, and the refusal moves on to the oldest one still waiting. One still
 * waiting when the connection drops is settled by the history of the next `room_joined` (its
 * ciphertext is there: it was relayed; it is not: it was not). What the ledger gives back is
 * shown NOT SENT with RESEND, never as sent.
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

/** What an echo settles: the message it relays, and one that the refusal now falls to. */
export interface EchoOutcome {
  /** The message relayed (shown as sent, if it was shown NOT SENT); null: none of the ledger's. */
  relayed: string | null;
  /** The message a misattributed refusal falls to instead, with the refusal's words. */
  refused: { send: InFlightSend; reason: string } | null;
}

/** Refused messages remembered, in case their echo proves the refusal was another's. */
const REFUSED_KEPT = 50;

type Entry = InFlightSend & { key: string };

function wireKey(sent: WireContent): string {
  return `${sent.encryptedContent ?? ''}\u0000${sent.content}`;
}

function sendOf({ id, payload, isStealthMode }: Entry): InFlightSend {
  return { id, payload, isStealthMode };
}

export class OutgoingLedger {
  private entries: Entry[] = [];
  private refusedEntries: (Entry & { reason: string })[] = [];

  /** A message left on the socket. */
  sent(send: InFlightSend, wire: WireContent): void {
    this.entries.push({ ...send, key: wireKey(wire) });
  }

  /** This tab's own `new_message`: its message was relayed. */
  echoed(message: WireContent): EchoOutcome {
    const key = wireKey(message);
    const index = this.entries.findIndex((entry) => entry.key === key);
    if (index >= 0) {
      const [entry] = this.entries.splice(index, 1);
      return { relayed: entry?.id ?? null, refused: null };
    }
    const wrong = this.refusedEntries.findIndex((entry) => entry.key === key);
    const mistaken = wrong >= 0 ? this.refusedEntries.splice(wrong, 1)[0] : undefined;
    if (!mistaken) return { relayed: null, refused: null };
    const next = this.refused(mistaken.reason);
    return {
      relayed: mistaken.id,
      refused: next ? { send: next, reason: mistaken.reason } : null,
    };
  }

  /** An `error` (`reason`) answered a `send_message`: the oldest message on its way was not relayed. */
  refused(reason: string): InFlightSend | null {
    const oldest = this.entries.shift();
    if (!oldest) return null;
    this.refusedEntries = [...this.refusedEntries, { ...oldest, reason }].slice(-REFUSED_KEPT);
    return sendOf(oldest);
  }

  /** A NOT SENT message was sent again or discarded: no echo of its old form is awaited. */
  forget(id: string): void {
    this.refusedEntries = this.refusedEntries.filter((entry) => entry.id !== id);
  }

  /**
   * The room was joined again after a lost connection: what the history holds was relayed; the
   * rest is given back as not sent (and leaves the ledger).
   */
  settle(history: readonly WireContent[]): InFlightSend[] {
    const relayed = new Set(history.map(wireKey));
    const lost = this.entries.filter((entry) => !relayed.has(entry.key));
    this.clear();
    return lost.map(sendOf);
  }

  /** The room was left: nothing of it is tracked any longer. */
  clear(): void {
    this.entries = [];
    this.refusedEntries = [];
  }

  get size(): number {
    return this.entries.length;
  }
}
