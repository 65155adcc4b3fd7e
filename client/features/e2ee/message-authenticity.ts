/**
 * Who really sent a message, and whether it is new (docs/crypto-room.md §9, "Own and replayed
 * messages"):
 *
 * - this tab keeps a record of every message it signed (message id → digest of the body), so a
 *   message the relay shows under this tab's own node id is checked against what was really sent:
 *   anything else is `forged`;
 * - every reader remembers the message ids it has read (with the relay's id of that copy): a
 *   second copy under another relay id is `replayed`, as is a signature whose signed time lies
 *   outside the message's lifetime (plus MESSAGE_CLOCK_SKEW_MS for clocks that disagree);
 * - a member's good signature is `verified` only while the member itself is (member-trust.ts).
 */
import { type Message } from '../../../shared/protocol/ws/chat.js';
import { MESSAGE_CLOCK_SKEW_MS } from './e2ee-constants.js';
import {
  bodyDigest,
  isMessageSignatureValid,
  parseSignature,
  type SignatureState,
} from './message-signature.js';
import { type BundleIdentitySigner } from './bundle-identity.js';
import { type CryptoLog } from './crypto-log.js';
import { type MemberTrust } from './e2ee-status.js';
import { type JoinedRoom } from './key-agreement-base.js';
import { acceptedSigningKeys, type RoomMember } from './room-members.js';

/** What checkSignature reads of the room's key manager (room-key-manager.ts is one). */
export interface SignatureCheckContext {
  readonly room: JoinedRoom | null;
  readonly ledger: MessageLedger;
  readonly log: CryptoLog;
  readonly identity: BundleIdentitySigner | null;
  readonly members: ReadonlyMap<string, RoomMember>;
  readonly now: number;
  trustOf(member: RoomMember): MemberTrust;
}

/** Message ids kept per kind; messages expire after 30 s, so a few thousand is plenty. */
const MEMORY_LIMIT = 5000;

/** This tab's sent messages and the message ids it has read, for one room join. */
export class MessageLedger {
  readonly #sent = new Map<string, string>();
  readonly #seen = new Map<string, string>();

  /** Records a message this tab signed. */
  recordSent(messageId: string, body: string): void {
    this.#sent.set(messageId, bodyDigest(body));
    trim(this.#sent);
  }

  /** True when this tab signed `messageId` over exactly `body`. */
  wasSentHere(messageId: string, body: string): boolean {
    return this.#sent.get(messageId) === bodyDigest(body);
  }

  /** True when another relay message already carried sender message id `messageId`. */
  isReplay(messageId: string, relayId: string): boolean {
    const earlier = this.#seen.get(messageId);
    return earlier !== undefined && earlier !== relayId;
  }

  /**
   * Notes that relay message `relayId` carries sender message id `messageId`. Returns false when
   * another relay message carried it before (a replay).
   */
  noteSeen(messageId: string, relayId: string): boolean {
    const earlier = this.#seen.get(messageId);
    if (earlier !== undefined) return earlier === relayId;
    this.#seen.set(messageId, relayId);
    trim(this.#seen);
    return true;
  }

  clear(): void {
    this.#sent.clear();
    this.#seen.clear();
  }
}

function trim(map: Map<string, string>): void {
  if (map.size > MEMORY_LIMIT) map.delete(map.keys().next().value ?? '');
}

/** True when a signed time could belong to this message (not older than its lifetime). */
function isSignedTimePlausible(message: Message, sentAt: number): boolean {
  const createdAt = Date.parse(message.createdAt);
  const lifetime = Math.max(0, Date.parse(message.expiresAt) - createdAt);
  return (
    sentAt >= createdAt - lifetime - MESSAGE_CLOCK_SKEW_MS &&
    sentAt <= createdAt + MESSAGE_CLOCK_SKEW_MS
  );
}

/** The signature state of `message` (sent by `message.senderId`) over `body`. */
export function checkSignature(
  manager: SignatureCheckContext,
  message: Message,
  body: string,
): SignatureState {
  const room = manager.room;
  if (!room) return 'unverified';
  const signature = parseSignature(message.signature);
  const fields = {
    roomId: room.secureId,
    senderNodeId: message.senderId,
    encryptionType: message.encryptionType,
    body,
  };
  if (message.senderId === room.nodeId) {
    // The relay can put anything under this tab's node id: only what this tab sent is its own.
    if (!signature || !manager.ledger.wasSentHere(signature.messageId, body)) {
      manager.log.error('A message shown as yours was not sent by this tab (forged by the relay)');
      return 'forged';
    }
    if (!manager.ledger.noteSeen(signature.messageId, message.id)) {
      manager.log.warning('One of your messages was relayed again (replayed)');
      return 'replayed';
    }
    return manager.identity ? 'verified' : 'unverified';
  }
  const member = manager.members.get(message.senderId);
  if (!member) return 'unverified';
  if (
    !signature ||
    !isMessageSignatureValid(fields, signature, acceptedSigningKeys(member, manager.now))
  ) {
    manager.log.warning(`Signature of a message from ${member.username} does not verify`);
    return 'bad';
  }
  const { messageId, sentAt } = signature;
  if (!manager.ledger.noteSeen(messageId, message.id) || !isSignedTimePlausible(message, sentAt)) {
    manager.log.warning(`A message from ${member.username} was replayed`);
    return 'replayed';
  }
  const trust = manager.trustOf(member);
  if (trust === 'verified') return 'verified';
  return trust === 'bad' ? 'bad' : 'unverified';
}
