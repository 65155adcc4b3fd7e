/**
 * Relay of room key agreement (docs/crypto-room.md): members' public bundles are kept per room
 * for newcomers and announced to the others; sender-key envelopes go to one member only. The
 * server checks shape and addressing, never content: it holds no key that opens an envelope.
 */
import type { KeyBundle } from '../../../shared/protocol/ws/e2ee.js';
import { AppError } from '../../errors.js';
import type { Connection } from '../../realtime/connection.js';
import type { Hub } from '../../realtime/hub.js';
import { TokenBucket } from '../../realtime/token-bucket.js';
import type { RoomChannels } from '../../realtime/room-channels.js';
import type { PresenceStore } from './presence.js';

export const KEY_RELAY_TEXT = {
  notInRoom: 'Join a room before exchanging keys',
  unknownTarget: 'That member is not in this room',
  tooManyAnnounces: 'Too many key announcements: wait before announcing again',
  identityMismatch: 'The key bundle names a key this session did not log in with',
} as const;

/**
 * `key_announce` frames one connection may send: a burst of KEY_ANNOUNCE_BURST, then one every
 * 1 / KEY_ANNOUNCE_PER_SECOND seconds. A member announces on joining, when it loads its key file
 * and when its signing key rotates (every 5 minutes): far below. Each announce makes every other
 * member hand its sender keys over again, so a member that floods announces would keep the
 * others busy (issue 14); past the limit it gets an error frame and nothing is relayed.
 */
export const KEY_ANNOUNCE_BURST = 4;
export const KEY_ANNOUNCE_PER_SECOND = 0.1;

export interface BundleEntry {
  nodeId: string;
  username: string;
  bundle: KeyBundle;
}

/** The latest public bundle of each member, per room. */
export interface KeyBundleStore {
  set(roomId: string, entry: BundleEntry): Promise<void>;
  list(roomId: string): Promise<BundleEntry[]>;
  remove(roomId: string, nodeId: string): Promise<void>;
  purgeRoom(roomId: string): Promise<void>;
}

export class MemoryKeyBundleStore implements KeyBundleStore {
  private readonly rooms = new Map<string, Map<string, BundleEntry>>();

  async set(roomId: string, entry: BundleEntry): Promise<void> {
    let bundles = this.rooms.get(roomId);
    if (!bundles) {
      bundles = new Map();
      this.rooms.set(roomId, bundles);
    }
    bundles.set(entry.nodeId, entry);
  }

  async list(roomId: string): Promise<BundleEntry[]> {
    return [...(this.rooms.get(roomId)?.values() ?? [])];
  }

  async remove(roomId: string, nodeId: string): Promise<void> {
    const bundles = this.rooms.get(roomId);
    bundles?.delete(nodeId);
    if (bundles?.size === 0) this.rooms.delete(roomId);
  }

  async purgeRoom(roomId: string): Promise<void> {
    this.rooms.delete(roomId);
  }
}

export function registerKeyRelay(deps: {
  hub: Hub;
  channels: RoomChannels;
  bundles: KeyBundleStore;
  presence: PresenceStore;
  now?: () => number;
}): void {
  const { hub, channels, bundles, presence } = deps;
  const announceBuckets = new WeakMap<Connection, TokenBucket>();

  hub.on('key_announce', async (connection, frame) => {
    const roomId = connection.roomId;
    if (!roomId || !connection.username)
      throw new AppError('NOT_IN_ROOM', 400, KEY_RELAY_TEXT.notInRoom);
    let bucket = announceBuckets.get(connection);
    if (!bucket) {
      bucket = new TokenBucket(KEY_ANNOUNCE_BURST, KEY_ANNOUNCE_PER_SECOND, deps.now);
      announceBuckets.set(connection, bucket);
    }
    if (!bucket.take()) {
      throw new AppError('KEY_ANNOUNCE_RATE', 429, KEY_RELAY_TEXT.tooManyAnnounces);
    }
    // Only a session that logged in with a key may name it (the roster's isAuthenticated).
    const claimed = frame.bundle.identity?.keyId;
    if (claimed !== undefined && claimed !== connection.identity?.keyId) {
      throw new AppError('IDENTITY_MISMATCH', 403, KEY_RELAY_TEXT.identityMismatch);
    }
    await bundles.set(roomId, {
      nodeId: connection.nodeId,
      username: connection.username,
      bundle: frame.bundle,
    });
    await channels.publish(
      roomId,
      {
        type: 'key_announce',
        fromNodeId: connection.nodeId,
        username: connection.username,
        bundle: frame.bundle,
      },
      { exclude: connection },
    );
  });

  hub.on('sender_key', async (connection, frame) => {
    const roomId = connection.roomId;
    if (!roomId) throw new AppError('NOT_IN_ROOM', 400, KEY_RELAY_TEXT.notInRoom);
    const members = await presence.list(roomId);
    if (!members.some((member) => member.nodeId === frame.targetNodeId)) {
      throw new AppError('UNKNOWN_TARGET', 400, KEY_RELAY_TEXT.unknownTarget);
    }
    await channels.publish(
      roomId,
      { type: 'sender_key', fromNodeId: connection.nodeId, envelope: frame.envelope },
      { onlyNodeId: frame.targetNodeId },
    );
  });
}
