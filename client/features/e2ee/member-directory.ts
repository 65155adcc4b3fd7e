/**
 * The other members as this browser knows them in the current room: their bundles (RoomMember),
 * the sender-key epochs they handed over, envelopes that arrived before their bundle, and the
 * relay's member list (who is present, who is a key holder). Cleared when the room is left.
 */
import { type MemberStatus } from './e2ee-status.js';
import { memberStatus, type RoomMember } from './room-members.js';
import { type SenderKeyWireEnvelope } from './sender-key-envelope.js';
import { ReceivedEpochs } from './sender-epochs.js';

/** Envelopes kept per member while its bundle is on the way. */
const MAX_PENDING_ENVELOPES = 8;

export class MemberDirectory {
  readonly members = new Map<string, RoomMember>();
  readonly received = new ReceivedEpochs();
  readonly #pending = new Map<string, SenderKeyWireEnvelope[]>();
  readonly #present = new Set<string>();
  readonly #authenticated = new Set<string>();

  /** The relay's member list (`user_list_update`). */
  setRoster(users: readonly { nodeId: string; isAuthenticated: boolean }[]): void {
    this.#present.clear();
    this.#authenticated.clear();
    for (const user of users) {
      this.#present.add(user.nodeId);
      if (user.isAuthenticated) this.#authenticated.add(user.nodeId);
    }
  }

  /** A member joined (`user_joined` with its entry): added to the relay's member list. */
  addToRoster(user: { nodeId: string; isAuthenticated: boolean }): void {
    this.#present.add(user.nodeId);
    if (user.isAuthenticated) this.#authenticated.add(user.nodeId);
    else this.#authenticated.delete(user.nodeId);
  }

  /** A member left (`user_left`): no longer on the relay's member list. */
  removeFromRoster(nodeId: string): void {
    this.#present.delete(nodeId);
    this.#authenticated.delete(nodeId);
  }

  /** True when the relay's member list marks `nodeId` as a key-authenticated session. */
  isAuthenticated(nodeId: string): boolean {
    return this.#authenticated.has(nodeId);
  }

  /** True when the relay's member list names `nodeId` (with its authentication, either way). */
  isListed(nodeId: string): boolean {
    return this.#present.has(nodeId);
  }

  /** False once the relay's member list no longer names `nodeId` (it left). */
  isPresent(nodeId: string): boolean {
    return this.#present.size === 0 || this.#present.has(nodeId);
  }

  /**
   * True when every member the relay lists, other than `selfNodeId`, announced a bundle whose ZK
   * check value is `zkCheck`: then every current reader can derive the ZK-AES-256 key. False
   * before the relay's list arrives, and while any listed member's bundle is missing.
   */
  everyReaderHoldsZk(selfNodeId: string, zkCheck: string): boolean {
    if (this.#present.size === 0) return false;
    for (const nodeId of this.#present) {
      if (nodeId === selfNodeId) continue;
      const member = this.members.get(nodeId);
      if (!member || member.trust === 'bad' || member.zkCheck !== zkCheck) return false;
    }
    return true;
  }

  /** Keeps an envelope whose sender's bundle has not arrived (a few at most). */
  holdEnvelope(nodeId: string, envelope: SenderKeyWireEnvelope): void {
    const held = this.#pending.get(nodeId) ?? [];
    if (held.length < MAX_PENDING_ENVELOPES) this.#pending.set(nodeId, [...held, envelope]);
  }

  /** The envelopes held for `nodeId`, which are forgotten here. */
  takeEnvelopes(nodeId: string): SenderKeyWireEnvelope[] {
    const held = this.#pending.get(nodeId) ?? [];
    this.#pending.delete(nodeId);
    return held;
  }

  /** A member left: forgotten, and its epochs start their grace period. Returns who it was. */
  forget(nodeId: string, now: number): RoomMember | undefined {
    const member = this.members.get(nodeId);
    this.members.delete(nodeId);
    this.#pending.delete(nodeId);
    this.received.retireSender(nodeId, now);
    return member;
  }

  clear(): void {
    this.members.clear();
    this.received.clear();
    this.#pending.clear();
    this.#present.clear();
    this.#authenticated.clear();
  }

  statuses(trustOf: (member: RoomMember) => RoomMember['trust']): MemberStatus[] {
    return [...this.members.values()].map((member) =>
      memberStatus(
        { ...member, trust: trustOf(member) },
        {
          isKeyHolder: this.#authenticated.has(member.nodeId),
          hasSenderKey: this.received.hasCurrent(member.nodeId),
        },
      ),
    );
  }
}
