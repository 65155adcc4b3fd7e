/**
 * Relay of room key agreement (docs/crypto-room.md): members' public bundles are kept per room
 * for newcomers and announced to the others; sender-key envelopes go to one member only. The
 * server checks shape and addressing, never content: it holds no key that opens an envelope.
 */
import type { KeyBundle } from '../../../shared/protocol/ws/e2ee.js';
import { AppError } from '../../errors.js';
import type { Hub } from '../../realtime/hub.js';
import type { RoomChannels } from '../../realtime/room-channels.js';
import type { PresenceStore } from './presence.js';

export const KEY_RELAY_TEXT = {
  notInRoom: 'Join a room before exchanging keys',
  unknownTarget: 'That member is not in this room',
} as const;

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
}): void {
  const { hub, channels, bundles, presence } = deps;

  hub.on('key_announce', async (connection, frame) => {
    const roomId = connection.roomId;
    if (!roomId || !connection.username)
      throw new AppError('NOT_IN_ROOM', 400, KEY_RELAY_TEXT.notInRoom);
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
