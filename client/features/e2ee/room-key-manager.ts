/**
 * Room key agreement in the browser (docs/crypto-room.md, "In the browser"). One manager per page:
 *
 * - on start, session key pairs (ECDH P-256, ML-KEM-768, RSA-OAEP, ML-DSA-65), with the server's
 *   entropy mixed in where it can be (entropy-pool.ts);
 * - after `room_joined`, a new sender-key epoch (SKc, SKq) and the member's bundle, signed with
 *   the key file when one is loaded;
 * - for every member's bundle: identity check (signature, pins, registry), then this member's
 *   current sender keys, wrapped pairwise (SKc classic, SKq hybrid) and sent to that member only;
 * - rotation: the signing key every 5 minutes (re-announced), the sender keys every 30 minutes and
 *   at once when a member leaves; received epochs are kept 10 minutes after they are replaced.
 *
 * Frames are handled one at a time, in arrival order (a sender key is never opened before its
 * sender's bundle has been checked). Encrypting and reading messages are in room-message-io.ts.
 */
import { PFS_GRACE_PERIOD_MS } from '../../../shared/constants.js';
import { wipe } from '../../../shared/crypto/room/index.js';
import { type KeyBundle } from '../../../shared/protocol/ws/e2ee.js';
import { signBundle, type BundleIdentitySigner } from './bundle-identity.js';
import { type CryptoLog } from './crypto-log.js';
import { describeError, secureIdOf, type E2eePhase, type E2eeStatus } from './e2ee-status.js';
import { EntropyPool } from './entropy-pool.js';
import { FrameOutbox } from './frame-outbox.js';
import { type IdentityRegistry } from './identity-trust.js';
import {
  SerialObservable,
  type JoinedRoom,
  type KeyTransport,
  type RoomJoin,
  type RoomKeyManagerDeps,
} from './key-agreement-base.js';
import {
  KEY_REANNOUNCE_LIMIT,
  KEY_REANNOUNCE_WINDOW_MS,
  ROSTER_WAIT_MS,
} from './e2ee-constants.js';
import { MessageLedger } from './message-authenticity.js';
import { judgeBundle, trustLogEntry } from './member-trust.js';
import { MemberDirectory } from './member-directory.js';
import {
  memberFromBundle,
  readBundleKeys,
  type MemberTrust,
  type RoomMember,
} from './room-members.js';
import {
  openSenderKey,
  wrapSenderKeys,
  wrapVoiceKey,
  type ExchangeSelf,
} from './sender-key-exchange.js';
import { type SenderKeyWireEnvelope, type VoiceKeyGrant } from './sender-key-envelope.js';
import {
  createOwnEpoch,
  destroyOwnEpoch,
  isOwnEpochDue,
  type OwnEpoch,
  type ReceivedEpochs,
} from './sender-epochs.js';
import { SessionKeys } from './session-keys.js';
import { deriveRoomZkKey } from './zk-key.js';

export class RoomKeyManager extends SerialObservable {
  declare readonly log: CryptoLog;
  readonly entropy: EntropyPool;
  /** Messages this browser sent, by their `encryptedContent`: the sender cannot re-read PFS types. */
  readonly sentByMe = new Map<string, string>();
  /** This tab's signed messages and the message ids it read (own-message and replay checks). */
  readonly ledger = new MessageLedger();
  readonly #directory = new MemberDirectory();
  #keys: SessionKeys | null = null;
  #phase: E2eePhase = 'initializing';
  #init: Promise<void> | null = null;
  #transport: KeyTransport | null = null;
  #identity: BundleIdentitySigner | null = null;
  #registry: IdentityRegistry | null = null;
  #room: JoinedRoom | null = null;
  #own: OwnEpoch | null = null;
  #bundlesLoaded = false;
  /** True once this node's bundle has left for the relay (no message may overtake it). */
  #hasAnnounceLeft = false;
  /** The epoch whose sender keys have left for each member (per-recipient readiness). */
  readonly #handedOver = new Map<string, string>();
  /** Unverified members of a locked room this browser was warned about before they got keys. */
  readonly #warnedUnverified = new Set<string>();
  /** Registry-confirmed members of a locked room whose roster entry has not arrived yet. */
  readonly #awaitingRoster = new Set<string>();
  /** Members whose roster entry did not come in time: their keys went after the warning. */
  readonly #rosterWaitOver = new Set<string>();
  /** When each member's bundle last changed its session keys (the re-announce limit). */
  readonly #bundleChanges = new Map<string, number[]>();
  #hasJoinFailed = false;
  /** True while a rotated epoch is being handed to the members: messages wait for it. */
  #isDistributing = false;
  readonly #outbox = new FrameOutbox(() => this.#emit());
  #status: E2eeStatus | null = null;
  readonly #voiceKeyListeners = new Set<(fromNodeId: string, grant: VoiceKeyGrant) => void>();

  constructor(private readonly deps: RoomKeyManagerDeps) {
    super(deps.log);
    this.entropy = deps.entropy ?? new EntropyPool();
  }

  /** The other members' bundles, by node id. */
  get members(): ReadonlyMap<string, RoomMember> {
    return this.#directory.members;
  }
  /** The sender-key epochs the other members handed over. */
  get received(): ReceivedEpochs {
    return this.#directory.received;
  }
  /** False once the relay's member list no longer names `nodeId` (it left). */
  isPresent(nodeId: string): boolean {
    return this.#directory.isPresent(nodeId);
  }
  /**
   * True when ZK-AES-256 may be chosen: this tab derived the ZK key and every member the relay
   * lists announced the same key check value (docs/crypto-room.md §8).
   */
  get canEveryoneReadZk(): boolean {
    const room = this.#room;
    if (!room?.zk) return false;
    return this.#directory.everyReaderHoldsZk(room.nodeId, room.zk.fingerprint);
  }

  get now(): number {
    return this.deps.now();
  }
  get phase(): E2eePhase {
    return this.#phase;
  }
  get keys(): SessionKeys | null {
    return this.#keys;
  }
  get room(): JoinedRoom | null {
    return this.#room;
  }
  get ownEpoch(): OwnEpoch | null {
    return this.#own;
  }
  get identity(): BundleIdentitySigner | null {
    return this.#identity;
  }
  /** True once the bundles of the members present at join time have been processed. */
  get bundlesLoaded(): boolean {
    return this.#bundlesLoaded;
  }
  /**
   * True when a message can leave encrypted: keys made, room joined, epoch started, the bundle
   * gone out (so no member sees a message before the bundle that verifies its signature), and the
   * current epoch's sender keys gone out to every member who gets them — per recipient: frames
   * still queued for a member who already holds this epoch (a re-announce) hold nothing up.
   */
  get isReadyToSend(): boolean {
    const own = this.#own;
    if (this.#phase !== 'ready' || this.#room === null || own === null) return false;
    if (!this.#hasAnnounceLeft || this.#isDistributing) return false;
    for (const member of this.members.values()) {
      if (member.trust === 'bad') continue;
      if (this.#handedOver.get(member.nodeId) !== own.senderKeyId) return false;
    }
    return true;
  }

  /**
   * How far a member is trusted right now: `verified` needs both the registry-confirmed identity
   * (member-trust.ts) and the relay's roster marking the member's session as key-authenticated.
   */
  trustOf(member: RoomMember): MemberTrust {
    if (member.trust !== 'verified') return member.trust;
    return this.#directory.isAuthenticated(member.nodeId) ? 'verified' : 'unverified';
  }

  /** Generates the session keys once; later calls return the same promise. */
  initialize(): Promise<void> {
    this.#init ??= this.#generate();
    return this.#init;
  }

  async #generate(): Promise<void> {
    if (this.deps.fetchServerEntropy) {
      try {
        this.entropy.setServerEntropy(await this.deps.fetchServerEntropy());
        this.log.info('Server entropy mixed into local randomness (HKDF-SHA-256)');
      } catch (error) {
        this.log.warning(describeError(error));
        this.log.info('Falling back to browser-generated randomness');
      }
    }
    // Browsers hide WebCrypto outside secure contexts (plain HTTP away from localhost).
    if (globalThis.isSecureContext === false || !globalThis.crypto?.subtle) {
      this.#phase = 'failed';
      this.log.error(
        'Key generation failed: WebCrypto needs a secure context (HTTPS, an onion service or localhost)',
      );
      this.#emit();
      return;
    }
    try {
      this.#keys = await SessionKeys.generate(this.entropy.draw, this.now);
      this.#phase = 'ready';
      this.log.success('Session keys generated: ECDH P-256, ML-KEM-768, RSA-OAEP-2048, ML-DSA-65');
    } catch (error) {
      this.#phase = 'failed';
      this.log.error(`Key generation failed: ${describeError(error)}`);
    }
    this.#emit();
  }

  setTransport(transport: KeyTransport | null): void {
    this.#transport = transport;
  }

  /** The key file's signer (null: anonymous, or the file was not reloaded). Re-announces. */
  setIdentity(signer: BundleIdentitySigner | null): Promise<void> {
    if ((signer?.fields.keyId ?? null) === (this.#identity?.fields.keyId ?? null)) {
      return this.settled();
    }
    this.#identity = signer;
    return this.enqueue(async () => {
      if (this.#room) await this.#announce();
      this.#emit();
    });
  }

  setRegistry(registry: IdentityRegistry | null): void {
    this.#registry = registry;
  }

  /** Which members the relay says are key holders, for the "reload your key file" hint. */
  setRoster(users: readonly { nodeId: string; isAuthenticated: boolean }[]): Promise<void> {
    return this.enqueue(async () => {
      this.#directory.setRoster(users);
      for (const nodeId of [...this.#awaitingRoster]) {
        if (this.#directory.isListed(nodeId)) await this.#releaseAwaitingRoster(nodeId);
      }
      this.#emit();
    });
  }

  /**
   * `user_joined` with the newcomer's entry, or `users_joined` with a window's newcomers: the
   * relay's member list grows by them. This browser's own entry, in a `users_joined` of the
   * window it joined in, is skipped: it is on the list already.
   */
  handleMembersJoined(
    users: readonly { nodeId: string; isAuthenticated: boolean }[],
  ): Promise<void> {
    return this.enqueue(async () => {
      for (const user of users) {
        if (user.nodeId === this.#room?.nodeId) continue;
        this.#directory.addToRoster(user);
        if (this.#awaitingRoster.has(user.nodeId)) await this.#releaseAwaitingRoster(user.nodeId);
      }
      this.#emit();
    });
  }

  /** After room_joined: a fresh epoch for the new node id, the ZK key, then the announce. */
  joinRoom(join: RoomJoin): Promise<void> {
    return this.enqueue(async () => {
      await this.initialize();
      this.#resetRoom();
      if (!this.#keys) return;
      const zk =
        join.accessCode && join.isLocked
          ? await deriveRoomZkKey(join.accessCode, join.secureId).catch(() => null)
          : null;
      this.#room = { ...join, zk, joinedAt: this.now };
      if (zk) this.log.info('ZK-AES-256 key derived from the access code (PBKDF2, 100,000 rounds)');
      this.#startEpoch('joined the channel');
      try {
        await this.#announce();
      } catch (error) {
        this.#hasJoinFailed = true;
        this.log.error(`Key bundle not announced: ${describeError(error)}`);
      }
      this.#emit();
    });
  }

  /** Leaves the room: every room key is wiped. */
  leaveRoom(): Promise<void> {
    return this.enqueue(async () => {
      this.#resetRoom();
      this.#emit();
    });
  }

  /** `key_bundles`: the members already present. */
  handleBundles(entries: readonly { nodeId: string; username: string; bundle: KeyBundle }[]) {
    return this.enqueue(async () => {
      for (const entry of entries)
        await this.#processBundle(entry.nodeId, entry.username, entry.bundle);
      this.#bundlesLoaded = true;
      this.#emit();
    });
  }

  /** `key_announce`: a member's new or re-announced bundle. */
  handleAnnounce(nodeId: string, username: string, bundle: KeyBundle): Promise<void> {
    return this.enqueue(() => this.#processBundle(nodeId, username, bundle));
  }

  /** `sender_key`: a member hands over one of their sender keys. */
  handleSenderKey(fromNodeId: string, envelope: SenderKeyWireEnvelope): Promise<void> {
    return this.enqueue(() => this.#openSenderKey(fromNodeId, envelope));
  }

  /**
   * Hands a voice frame key to one call participant through the pairwise hybrid wrap, as sender
   * keys travel (docs/crypto-room.md "Voice"). Resolves false, sending nothing, when the member's
   * bundle is unknown or judged bad (forged or substituted: never hand a key to it), or when this
   * browser has no room keys yet.
   */
  sendVoiceKey(nodeId: string, grant: VoiceKeyGrant): Promise<boolean> {
    let isQueued = false;
    return this.enqueue(async () => {
      const self = this.#self();
      const member = this.members.get(nodeId);
      const transport = this.#transport;
      if (!self || !member || !transport || member.trust === 'bad') return;
      const envelope = await wrapVoiceKey(self, member, grant);
      this.#outbox.push(() => transport.sendSenderKey(nodeId, envelope), `vk:${nodeId}`);
      isQueued = true;
    }).then(() => isQueued);
  }

  /** Calls `listener` with every voice frame key another member hands over; returns the off. */
  onVoiceKey(listener: (fromNodeId: string, grant: VoiceKeyGrant) => void): () => void {
    this.#voiceKeyListeners.add(listener);
    return () => this.#voiceKeyListeners.delete(listener);
  }

  /** `user_left`: forget the member and rotate at once, so they cannot read what follows. */
  handleMemberLeft(nodeId: string): Promise<void> {
    return this.enqueue(async () => {
      this.#directory.removeFromRoster(nodeId);
      const member = this.#directory.forget(nodeId, this.now);
      this.#handedOver.delete(nodeId);
      if (member && this.#room) await this.#rotateEpoch(`${member.username} left`);
      this.#emit();
    });
  }

  /** Time-based work: signing-key and sender-key rotation, expiry of old received epochs. */
  maintain(): Promise<void> {
    return this.enqueue(async () => {
      const keys = this.#keys;
      if (!keys) return;
      const now = this.now;
      if (keys.isSigningKeyDue(now)) {
        keys.rotateSigningKey(this.entropy.draw, now);
        this.log.info('Signature key rotated (ML-DSA-65); the previous one stays valid 5 minutes');
        if (this.#room) await this.#announce();
      }
      if (this.#own && this.#room && isOwnEpochDue(this.#own, now)) {
        await this.#rotateEpoch('30-minute rotation');
      }
      for (const expired of this.received.expire(now)) {
        const name = this.members.get(expired.nodeId)?.username ?? 'a former member';
        this.log.info(
          `Epoch ${expired.senderKeyId} of ${name} wiped ${PFS_GRACE_PERIOD_MS / 60_000} min after rotation`,
        );
      }
      this.#emit();
    });
  }

  /** The status the screen shows; the same object until something changes. */
  getStatus = (): E2eeStatus => {
    this.#status ??= this.#describe();
    return this.#status;
  };

  #describe(): E2eeStatus {
    const room = this.#room;
    return {
      phase: this.#phase,
      isReadyToSend: this.isReadyToSend,
      hasKeyAgreementFailed: this.#phase === 'failed' || this.#hasJoinFailed,
      roomId: room?.roomId ?? null,
      nodeId: room?.nodeId ?? null,
      epoch: this.#own && { senderKeyId: this.#own.senderKeyId, createdAt: this.#own.createdAt },
      signingKeyCreatedAt: this.#keys?.signing.createdAt ?? null,
      identityKeyId: this.#identity?.fields.keyId ?? null,
      zkFingerprint: room?.zk?.fingerprint ?? null,
      isZkInRotation: this.canEveryoneReadZk,
      hasServerEntropy: this.entropy.hasServerEntropy,
      members: this.#directory.statuses((member) => this.trustOf(member)),
      unverifiedReaders: this.#unverifiedReaders(),
    };
  }

  /** Names of members, still present and still unverified, this browser warned about. */
  #unverifiedReaders(): string[] {
    const names: string[] = [];
    for (const nodeId of this.#warnedUnverified) {
      const member = this.members.get(nodeId);
      if (member && this.trustOf(member) !== 'verified') names.push(member.username);
    }
    return names;
  }

  #emit(): void {
    this.#status = null;
    this.notify();
  }

  #resetRoom(): void {
    this.#outbox.clear();
    this.#isDistributing = false;
    destroyOwnEpoch(this.#own);
    this.#own = null;
    this.#room = null;
    this.#directory.clear();
    this.#bundlesLoaded = false;
    this.#hasAnnounceLeft = false;
    this.#handedOver.clear();
    this.#warnedUnverified.clear();
    this.#awaitingRoster.clear();
    this.#rosterWaitOver.clear();
    this.#bundleChanges.clear();
    this.ledger.clear();
    this.#hasJoinFailed = false;
  }

  #startEpoch(reason: string): void {
    const old = this.#own;
    this.#own = createOwnEpoch(this.entropy.draw, this.now);
    destroyOwnEpoch(old);
    this.log.info(
      `Sender keys ${old ? 'rotated' : 'generated'} (${reason}): epoch ${this.#own.senderKeyId}`,
    );
    // Fresh server entropy for the next draws; never awaited, never required.
    this.deps.fetchServerEntropy?.().then(
      (bytes) => this.entropy.setServerEntropy(bytes),
      () => undefined,
    );
  }

  async #rotateEpoch(reason: string): Promise<void> {
    // Until every member has been handed the new keys, a message under them would reach members
    // who still hold only the old epoch: sending waits (isReadyToSend).
    this.#isDistributing = true;
    this.#startEpoch(reason);
    try {
      for (const member of this.members.values()) {
        if (member.trust !== 'bad') await this.#handOver(member);
      }
    } finally {
      this.#isDistributing = false;
      this.#emit();
    }
  }

  async #announce(): Promise<void> {
    const keys = this.#keys;
    const room = this.#room;
    if (!keys || !room) return;
    const binding = { roomId: room.secureId, nodeId: room.nodeId };
    // The ZK check value tells senders this tab can read ZK-AES-256 (never the code or key).
    const unsigned = room.zk
      ? { ...keys.unsignedBundle(), zk: room.zk.fingerprint }
      : keys.unsignedBundle();
    const bundle = await signBundle(unsigned, binding, this.#identity);
    const transport = this.#transport;
    if (!transport) return;
    this.#outbox.push(() => {
      const isSent = transport.announce(bundle);
      if (isSent && !this.#hasAnnounceLeft) {
        this.#hasAnnounceLeft = true;
        this.#emit();
      }
      return isSent;
    }, 'announce');
    this.log.info(
      this.#identity
        ? `Key bundle announced, signed with key ${secureIdOf(this.#identity.fields.keyId)}`
        : 'Key bundle announced without an identity signature (no key file loaded): others see it as unverified',
    );
  }

  async #processBundle(nodeId: string, username: string, bundle: KeyBundle): Promise<void> {
    const room = this.#room;
    if (!room || nodeId === room.nodeId) return;
    const keys = await readBundleKeys(bundle);
    if (!keys) {
      this.log.error(`Malformed key bundle from ${username} ignored`);
      return;
    }
    const existing = this.members.get(nodeId);
    if (existing && existing.sessionKeysTag !== keys.sessionKeysTag && this.#isChurning(nodeId)) {
      return;
    }
    const { trust, reason, keyId } = await judgeBundle({
      bundle,
      binding: { roomId: room.secureId, nodeId },
      username,
      existing,
      pins: this.deps.pins,
      registry: this.#registry,
    });
    const member: RoomMember = {
      ...memberFromBundle({ nodeId, username, bundle, keys, existing, now: this.now }),
      trust,
      trustReason: reason,
      keyId,
    };
    this.#directory.members.set(nodeId, member);
    const entry = trustLogEntry(member, existing);
    if (entry) this.log.add(entry.level, entry.text);
    if (!existing || existing.sessionKeysTag !== keys.sessionKeysTag) {
      // Never hand sender keys to a forged or substituted bundle: its keys may be the attacker's.
      if (trust === 'bad') this.log.warning(`Sender keys withheld from ${username}`);
      else await this.#handOver(member);
    }
    for (const envelope of this.#directory.takeEnvelopes(nodeId))
      await this.#openSenderKey(nodeId, envelope);
    this.#emit();
  }

  /**
   * Counts a change of `nodeId`'s session keys; true when it is past KEY_REANNOUNCE_LIMIT in
   * KEY_REANNOUNCE_WINDOW_MS, and the bundle is then ignored. A real member never changes its
   * session keys under one node id: only a hostile one churns them, to keep this outbox busy.
   */
  #isChurning(nodeId: string): boolean {
    const now = this.now;
    const recent = (this.#bundleChanges.get(nodeId) ?? []).filter(
      (at) => now - at < KEY_REANNOUNCE_WINDOW_MS,
    );
    const isOverLimit = recent.length >= KEY_REANNOUNCE_LIMIT;
    if (!isOverLimit) recent.push(now);
    else if (recent.length === KEY_REANNOUNCE_LIMIT) {
      recent.push(now);
      const name = this.members.get(nodeId)?.username ?? 'a member';
      this.log.warning(`Key bundle of ${name} changes too often: further changes ignored`);
    }
    this.#bundleChanges.set(nodeId, recent);
    return isOverLimit;
  }

  #self(): ExchangeSelf | null {
    const keys = this.#keys;
    const room = this.#room;
    return keys && room ? { keys, secureId: room.secureId, nodeId: room.nodeId } : null;
  }

  /** Wraps the current epoch's chain snapshot and SKq (both hybrid) for one member, sends both. */
  async #handOver(member: RoomMember): Promise<void> {
    const self = this.#self();
    const epoch = this.#own;
    const transport = this.#transport;
    if (!self || !epoch || !transport) return;
    if (this.#room?.isLocked && this.trustOf(member) !== 'verified') {
      if (this.#isAwaitingRoster(member)) return;
      await this.#warnBeforeUnverifiedReader(member);
    }
    const envelopes = await wrapSenderKeys(self, epoch, member);
    envelopes.forEach((envelope, index) => {
      const isLast = index === envelopes.length - 1;
      this.#outbox.push(() => {
        const isSent = transport.sendSenderKey(member.nodeId, envelope);
        if (isSent && isLast && this.#handedOver.get(member.nodeId) !== epoch.senderKeyId) {
          this.#handedOver.set(member.nodeId, epoch.senderKeyId);
          this.#emit();
        }
        return isSent;
      }, `sk:${member.nodeId}:${index}`);
    });
    this.log.info(`Sender keys of epoch ${epoch.senderKeyId} sent to ${member.username}`);
  }

  /**
   * A key holder the registry confirmed is VERIFIED once the relay's member list marks their
   * session authenticated; that list may arrive after their bundle. In a locked room their keys
   * wait for it (ROSTER_WAIT_MS at most) rather than raise a warning that is about to be untrue.
   */
  #isAwaitingRoster(member: RoomMember): boolean {
    if (member.trust !== 'verified' || this.#directory.isListed(member.nodeId)) return false;
    if (this.#rosterWaitOver.has(member.nodeId)) return false;
    if (this.#awaitingRoster.has(member.nodeId)) return true;
    this.#awaitingRoster.add(member.nodeId);
    const room = this.#room;
    setTimeout(() => {
      void this.enqueue(async () => {
        if (this.#room === room) await this.#releaseAwaitingRoster(member.nodeId, true);
      });
    }, ROSTER_WAIT_MS);
    return true;
  }

  async #releaseAwaitingRoster(nodeId: string, hasTimedOut = false): Promise<void> {
    if (!this.#awaitingRoster.delete(nodeId)) return;
    const member = this.members.get(nodeId);
    if (!member || member.trust === 'bad') return;
    if (hasTimedOut) this.#rosterWaitOver.add(nodeId);
    await this.#handOver(member);
    this.#emit();
  }

  /**
   * A locked room promises its members a closed circle. Before this browser's sender keys go to a
   * member whose key is not verified (an anonymous visitor who had the access code, or someone the
   * server let in), the room's screen says so — the status carries the name, and the crypto log —
   * and only then do the keys leave.
   */
  async #warnBeforeUnverifiedReader(member: RoomMember): Promise<void> {
    if (this.#warnedUnverified.has(member.nodeId)) return;
    this.#warnedUnverified.add(member.nodeId);
    this.log.warning(
      `${member.username} is not verified: in this locked channel they can read what you send from now on`,
    );
    this.#emit();
    // One macrotask, so the screen draws the warning before the keys are wrapped and sent.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }

  async #openSenderKey(fromNodeId: string, wire: SenderKeyWireEnvelope): Promise<void> {
    const self = this.#self();
    if (!self) return;
    const member = this.members.get(fromNodeId);
    if (!member) {
      // Its bundle is on the way (or the sender already left): keep a few until it arrives.
      this.#directory.holdEnvelope(fromNodeId, wire);
      return;
    }
    try {
      const grant = await openSenderKey(self, member, wire);
      if (grant.secret === 'voice') {
        // A bad bundle's keys may be an attacker's: take no frame key from it either.
        if (member.trust !== 'bad') {
          for (const listener of this.#voiceKeyListeners) listener(fromNodeId, grant);
        }
        wipe(grant.key);
        return;
      }
      const isNew = this.received.put(fromNodeId, grant, this.now);
      wipe(grant.key);
      if (isNew) {
        const which = grant.secret === 'chain' ? `chain from message ${grant.iteration}` : 'SKq';
        this.log.success(
          `Sender key (${which}, hybrid) of epoch ${grant.senderKeyId} received from ${member.username}`,
        );
      }
    } catch (error) {
      this.log.error(`Sender key from ${member.username} rejected: ${describeError(error)}`);
    }
    this.#emit();
  }
}
