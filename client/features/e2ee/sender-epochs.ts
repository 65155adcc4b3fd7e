/**
 * Sender-key epochs (docs/crypto-room.md §1, §4): this browser's own epoch (SKc, SKq, the sender
 * chain), replaced every PFS_KEY_ROTATION_MS and whenever a member leaves, and the epochs received
 * from every other member, each kept PFS_GRACE_PERIOD_MS after the sender moved on (spec 000 §9:
 * "shared secret grace period 10 min after expiry") and then wiped.
 */
import { PFS_GRACE_PERIOD_MS, PFS_KEY_ROTATION_MS } from '../../../shared/constants.js';
import { type RandomBytesSource } from '../../../shared/crypto/bytes.js';
import {
  createSenderChain,
  generateSenderKey,
  generateSenderKeyId,
  ReceiverChain,
  wipe,
  type SenderChain,
} from '../../../shared/crypto/room/index.js';
import { type SenderKeyGrant } from './sender-key-envelope.js';

/** This browser's current epoch as a sender. */
export interface OwnEpoch {
  senderKeyId: string;
  classicKey: Uint8Array;
  quantumKey: Uint8Array;
  chain: SenderChain;
  createdAt: number;
}

/** A fresh epoch: two new sender keys and a chain seeded from SKc (which never leaves). */
export function createOwnEpoch(random: RandomBytesSource, now: number): OwnEpoch {
  const senderKeyId = generateSenderKeyId(random);
  const classicKey = generateSenderKey(random);
  const quantumKey = generateSenderKey(random);
  return {
    senderKeyId,
    classicKey,
    quantumKey,
    chain: createSenderChain(senderKeyId, classicKey),
    createdAt: now,
  };
}

/** Wipes an epoch's keys; its chain refuses further use. */
export function destroyOwnEpoch(epoch: OwnEpoch | null): void {
  if (!epoch) return;
  epoch.chain.destroy();
  wipe(epoch.classicKey, epoch.quantumKey);
}

/** True when the epoch has lived its PFS_KEY_ROTATION_MS. */
export function isOwnEpochDue(epoch: OwnEpoch, now: number): boolean {
  return now - epoch.createdAt >= PFS_KEY_ROTATION_MS;
}

/** What a reader holds of one sender's epoch. Either key may still be on its way. */
export interface ReceivedEpoch {
  senderKeyId: string;
  quantumKey: Uint8Array | null;
  /** The sender chain from the iteration it was handed over at (a snapshot, never SKc). */
  chain: ReceiverChain | null;
  /** The first iteration this reader can derive: anything earlier was sent before it joined. */
  chainStart: number | null;
  receivedAt: number;
  /** When the sender moved on (a newer epoch arrived, or the sender left); null while current. */
  retiredAt: number | null;
}

/** An epoch that was wiped, and why: for the `[PFS-EXPIRED: id]` display and the log. */
export interface ExpiredEpoch {
  nodeId: string;
  senderKeyId: string;
}

/** Every other member's epochs, by node id and sender key id. */
export class ReceivedEpochs {
  readonly #bySender = new Map<string, Map<string, ReceivedEpoch>>();
  /** Wiped epochs, remembered by `nodeId/senderKeyId` so their messages say PFS-EXPIRED. */
  readonly #expired = new Set<string>();

  get(nodeId: string, senderKeyId: string): ReceivedEpoch | null {
    return this.#bySender.get(nodeId)?.get(senderKeyId) ?? null;
  }

  /** True when the epoch existed here and has been wiped after its grace period. */
  isExpired(nodeId: string, senderKeyId: string): boolean {
    return this.#expired.has(`${nodeId}/${senderKeyId}`);
  }

  /** How many senders this browser holds a current epoch of. */
  senderCount(): number {
    let count = 0;
    for (const epochs of this.#bySender.values()) {
      if ([...epochs.values()].some((epoch) => epoch.retiredAt === null)) count += 1;
    }
    return count;
  }

  /** True when `nodeId`'s current epoch has arrived (at least its chain). */
  hasCurrent(nodeId: string): boolean {
    const epochs = this.#bySender.get(nodeId);
    return epochs ? [...epochs.values()].some((e) => e.retiredAt === null && e.chain) : false;
  }

  /**
   * Stores a received key. A new sender key id retires the sender's other epochs (they stay
   * readable for the grace period). Returns false when the key was already held (a repeat).
   */
  put(nodeId: string, grant: SenderKeyGrant, now: number): boolean {
    if (this.isExpired(nodeId, grant.senderKeyId)) return false;
    let epochs = this.#bySender.get(nodeId);
    if (!epochs) {
      epochs = new Map();
      this.#bySender.set(nodeId, epochs);
    }
    let epoch = epochs.get(grant.senderKeyId);
    if (!epoch) {
      for (const other of epochs.values()) other.retiredAt ??= now;
      epoch = {
        senderKeyId: grant.senderKeyId,
        quantumKey: null,
        chain: null,
        chainStart: null,
        receivedAt: now,
        retiredAt: null,
      };
      epochs.set(grant.senderKeyId, epoch);
    }
    if (grant.secret === 'chain') {
      // A second snapshot of a chain already held (a re-announce) changes nothing.
      if (epoch.chain) return false;
      epoch.chain = new ReceiverChain({
        senderKeyId: grant.senderKeyId,
        chainKey: grant.key,
        iteration: grant.iteration,
      });
      epoch.chainStart = grant.iteration;
    } else {
      if (epoch.quantumKey) return false;
      epoch.quantumKey = Uint8Array.from(grant.key);
    }
    return true;
  }

  /** The sender left: its epochs start their grace period now. */
  retireSender(nodeId: string, now: number): void {
    for (const epoch of this.#bySender.get(nodeId)?.values() ?? []) epoch.retiredAt ??= now;
  }

  /**
   * Wipes the epochs past their grace period: retired for PFS_GRACE_PERIOD_MS, or older than
   * PFS_KEY_ROTATION_MS + PFS_GRACE_PERIOD_MS whatever the sender did. Returns what was wiped.
   */
  expire(now: number): ExpiredEpoch[] {
    const wiped: ExpiredEpoch[] = [];
    for (const [nodeId, epochs] of this.#bySender) {
      for (const [senderKeyId, epoch] of epochs) {
        const isPastGrace =
          epoch.retiredAt !== null && now - epoch.retiredAt >= PFS_GRACE_PERIOD_MS;
        const isPastLife = now - epoch.receivedAt >= PFS_KEY_ROTATION_MS + PFS_GRACE_PERIOD_MS;
        if (!isPastGrace && !isPastLife) continue;
        destroyReceived(epoch);
        epochs.delete(senderKeyId);
        this.#expired.add(`${nodeId}/${senderKeyId}`);
        wiped.push({ nodeId, senderKeyId });
      }
      if (epochs.size === 0) this.#bySender.delete(nodeId);
    }
    return wiped;
  }

  /** Wipes everything (leaving the room). */
  clear(): void {
    for (const epochs of this.#bySender.values())
      for (const epoch of epochs.values()) destroyReceived(epoch);
    this.#bySender.clear();
    this.#expired.clear();
  }
}

function destroyReceived(epoch: ReceivedEpoch): void {
  epoch.chain?.destroy();
  wipe(epoch.quantumKey);
  epoch.quantumKey = null;
  epoch.chain = null;
}
