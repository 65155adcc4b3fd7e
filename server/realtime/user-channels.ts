/**
 * Per-user fan-out: a frame for a key holder reaches each of their sockets, on every process
 * (direct-message notifications). Sockets subscribe once their key session is known.
 */
import type { Connection, OutgoingFrame } from './connection.js';
import type { Fanout } from './fanout.js';
import { SharedFrame } from './ws-frame.js';

const channelOf = (keyId: string) => `user:${keyId}`;

export class UserChannels {
  private readonly local = new Map<string, Set<Connection>>();
  private readonly unsubscribers = new Map<string, Promise<() => Promise<void>>>();

  constructor(private readonly fanout: Fanout) {}

  async publish(keyId: string, frame: OutgoingFrame): Promise<void> {
    await this.fanout.publish(channelOf(keyId), JSON.stringify(frame));
  }

  async add(keyId: string, connection: Connection): Promise<void> {
    let sockets = this.local.get(keyId);
    if (!sockets) {
      sockets = new Set();
      this.local.set(keyId, sockets);
      this.unsubscribers.set(
        keyId,
        this.fanout.subscribe(channelOf(keyId), (payload) => {
          const frame = new SharedFrame(payload);
          for (const socket of this.local.get(keyId) ?? []) socket.sendShared(frame);
        }),
      );
    }
    sockets.add(connection);
    await this.unsubscribers.get(keyId);
  }

  async remove(keyId: string, connection: Connection): Promise<void> {
    const sockets = this.local.get(keyId);
    if (!sockets) return;
    sockets.delete(connection);
    if (sockets.size > 0) return;
    this.local.delete(keyId);
    const unsubscribe = this.unsubscribers.get(keyId);
    this.unsubscribers.delete(keyId);
    if (unsubscribe) await (await unsubscribe)();
  }
}
