/**
 * An in-memory relay for the key manager's tests: it does what the server's key relay does
 * (server/features/rooms/key-relay.ts) — keeps each member's latest bundle, hands a newcomer every
 * current bundle right after it joins, announces bundles to the others, delivers a sender-key
 * envelope to its addressee only, and tells everyone when a member leaves — and it relays messages
 * as the server stamps them. A `tamper` hook lets a test play a malicious relay.
 */
import { type Message } from '../../../../shared/protocol/ws/chat.js';
import { type KeyBundle } from '../../../../shared/protocol/ws/e2ee.js';
import { CryptoLog } from '../../../../client/features/e2ee/crypto-log.js';
import { E2eeMessageCipher } from '../../../../client/features/e2ee/e2ee-message-cipher.js';
import { type BundleIdentitySigner } from '../../../../client/features/e2ee/bundle-identity.js';
import {
  MemoryPinStore,
  type IdentityRegistry,
} from '../../../../client/features/e2ee/identity-trust.js';
import { RoomKeyManager } from '../../../../client/features/e2ee/room-key-manager.js';
import { type SenderKeyWireEnvelope } from '../../../../client/features/e2ee/sender-key-envelope.js';
import { type MessagePayload } from '../../../../shared/protocol/message-payload.js';

export const ROOM_ID = 'room-under-test';
export const SECURE_ID = 'a1'.repeat(32);

/** A test clock: starts at a fixed time, moves only when told. */
export class TestClock {
  value = Date.parse('2030-01-01T00:00:00.000Z');
  now = () => this.value;
  advance(ms: number): void {
    this.value += ms;
  }
}

export interface Member {
  nodeId: string;
  username: string;
  manager: RoomKeyManager;
  cipher: E2eeMessageCipher;
  log: CryptoLog;
  pins: MemoryPinStore;
}

export interface MemberOptions {
  identity?: BundleIdentitySigner | null;
  accessCode?: string | null;
  registry?: IdentityRegistry | null;
  pins?: MemoryPinStore;
  isKeyHolder?: boolean;
}

export interface SentKeyFrame {
  from: string;
  to: string;
  envelope: SenderKeyWireEnvelope;
}

export class TestRelay {
  readonly members = new Map<string, Member>();
  readonly bundles = new Map<string, { username: string; bundle: KeyBundle }>();
  readonly senderKeyFrames: SentKeyFrame[] = [];
  /** Rewrites a bundle on its way out of `nodeId` (a malicious relay); identity by default. */
  tamper: (nodeId: string, bundle: KeyBundle) => KeyBundle = (_nodeId, bundle) => bundle;
  /** While true, sender-key frames are kept back (a slow relay) until releaseSenderKeys(). */
  holdSenderKeys = false;
  readonly #held: SentKeyFrame[] = [];
  #serial = 0;
  #nextNode = 1;

  constructor(
    readonly clock: TestClock,
    readonly isLocked = false,
  ) {}

  /** A new member joins: room_joined, key_bundles, then its own announce reaches the others. */
  async join(username: string, options: MemberOptions = {}): Promise<Member> {
    const nodeId = `node_${(this.#nextNode++).toString(16).padStart(16, '0')}`;
    const log = new CryptoLog(this.clock.now);
    const pins = options.pins ?? new MemoryPinStore();
    const manager = new RoomKeyManager({ now: this.clock.now, log, pins });
    const cipher = new E2eeMessageCipher(manager, { joinWaitMs: 2000, senderKeyWaitMs: 300 });
    const member: Member = { nodeId, username, manager, cipher, log, pins };
    manager.setTransport({
      announce: (bundle) => {
        const sent = this.tamper(nodeId, bundle);
        this.bundles.set(nodeId, { username, bundle: sent });
        for (const other of this.members.values()) {
          if (other.nodeId !== nodeId) void other.manager.handleAnnounce(nodeId, username, sent);
        }
        return true;
      },
      sendSenderKey: (targetNodeId, envelope) => {
        const target = this.members.get(targetNodeId);
        if (!target) return false;
        const frame = { from: nodeId, to: targetNodeId, envelope };
        this.senderKeyFrames.push(frame);
        if (this.holdSenderKeys) this.#held.push(frame);
        else void target.manager.handleSenderKey(nodeId, envelope);
        return true;
      },
    });
    manager.setRegistry(options.registry ?? null);
    if (options.identity) await manager.setIdentity(options.identity);
    const existing = [...this.bundles.entries()].map(([id, entry]) => ({ nodeId: id, ...entry }));
    this.members.set(nodeId, member);
    void manager.joinRoom({
      roomId: ROOM_ID,
      secureId: SECURE_ID,
      nodeId,
      accessCode: options.accessCode ?? null,
      isLocked: this.isLocked,
    });
    void manager.handleBundles(existing);
    this.#roster();
    await this.settle();
    return member;
  }

  #roster(): void {
    const users = [...this.members.values()].map((member) => ({
      nodeId: member.nodeId,
      isAuthenticated: member.manager.identity !== null,
    }));
    for (const member of this.members.values()) void member.manager.setRoster(users);
  }

  /** The member's connection closes: its bundle goes and everyone is told. */
  async leave(member: Member): Promise<void> {
    this.members.delete(member.nodeId);
    this.bundles.delete(member.nodeId);
    for (const other of this.members.values()) void other.manager.handleMemberLeft(member.nodeId);
    this.#roster();
    await this.settle();
  }

  /** Delivers the sender-key frames held back, in order. */
  async releaseSenderKeys(): Promise<void> {
    this.holdSenderKeys = false;
    for (const frame of this.#held.splice(0)) {
      void this.members.get(frame.to)?.manager.handleSenderKey(frame.from, frame.envelope);
    }
    await this.settle();
  }

  /** Waits until no manager has work left (frames cause frames, so a few rounds). */
  async settle(): Promise<void> {
    for (let round = 0; round < 6; round++) {
      await Promise.all([...this.members.values()].map((member) => member.manager.settled()));
    }
  }

  /** Encrypts `text` as `member` and returns the message the relay would broadcast. */
  async send(
    member: Member,
    payload: string | MessagePayload,
    isStealthMode = false,
  ): Promise<Message> {
    const outgoing = await member.cipher.encrypt(
      typeof payload === 'string' ? { v: 1, text: payload } : payload,
    );
    const createdAt = this.clock.value;
    return {
      id: `msg-${++this.#serial}`,
      senderId: member.nodeId,
      senderUsername: member.username,
      roomId: ROOM_ID,
      content: outgoing.content,
      encryptedContent: outgoing.encryptedContent,
      encryptionType: outgoing.encryptionType,
      signature: outgoing.signature,
      isStealthMode,
      hasImage: false,
      imageUrl: null,
      thumbnailUrl: null,
      imageMetadata: null,
      createdAt: new Date(createdAt).toISOString(),
      expiresAt: new Date(createdAt + 30_000).toISOString(),
      isSystem: false,
    };
  }
}

/** Every log text of a member, joined, for `toContain` checks. */
export function logText(member: Member): string {
  return member.log
    .getEntries()
    .map((entry) => entry.text)
    .join('\n');
}
