/**
 * Room fan-out. A room event is serialized once and published on the room's channel; every
 * process with local members of that room receives it once, frames it once (ws-frame.ts) and
 * writes the same bytes to each local socket. With the in-process fan-out that is one process;
 * with Redis, any number.
 *
 * With the in-process fan-out (one process) a room event is handed to the members directly, as
 * the frame it already is: the published form below is built only when another process may hear
 * it, so the hot path (a message to a room) builds and parses no header.
 *
 * Wire form of a published payload: `<excluded nodeId>|<0 or 1>|<only nodeId>\n<frame JSON>`, so a
 * sender can be left out (typing indicators) or one member addressed (sender keys) without
 * parsing the frame again. A 1 closes the room on every process after delivery: its members are
 * detached (the room was destroyed).
 *
 * A member's join (its `user_joined`) may wait a moment: {@link RoomChannels.announceJoin} holds it
 * for up to {@link COALESCE_WINDOW_MS}, and the room's joins of that window are published
 * together: one join as its `user_joined` (without the newcomer), several as one `users_joined`
 * carrying every newcomer's list entry (to every member; a client skips its own entry). A member of
 * a room filling up then gets one frame per window instead of one per newcomer (500 joins into
 * one room: about 500 × 14 frames, not 125,000, and each entry without a frame's wrapping).
 * Anything else this process publishes to the room first publishes the joins held for it, so the
 * room's frames keep the order in which they happened.
 */
import type { Connection, OutgoingFrame } from './connection.js';
import type { Fanout } from './fanout.js';
import { SharedFrame } from './ws-frame.js';

/** The fan-out channel of a room's events. */
export const roomChannel = (roomId: string) => `room:${roomId}`;
const channelOf = roomChannel;

export interface RoomPublishOptions {
  exclude?: Connection;
  closeRoom?: boolean;
  onlyNodeId?: string;
}

/**
 * The published form of a room frame: the header line, then the frame's JSON. The Redis message
 * store publishes `roomPayload('')` followed by the frame it builds itself (redis-message-store.ts).
 */
export function roomPayload(frameJson: string, options: RoomPublishOptions = {}): string {
  const { exclude, closeRoom = false, onlyNodeId = '' } = options;
  return `${payloadHeader(exclude?.nodeId, closeRoom, onlyNodeId)}\n${frameJson}`;
}

/** The first line of a published payload (see the wire form above). */
function payloadHeader(excludedNodeId = '', closeRoom = false, onlyNodeId = ''): string {
  return `${excludedNodeId}|${closeRoom ? 1 : 0}|${onlyNodeId}`;
}

/** What an in-process publish returns: it has delivered by then. */
const DELIVERED: Promise<void> = Promise.resolve();

/** How long {@link RoomChannels.announceJoin} may hold a join. */
export const COALESCE_WINDOW_MS = 50;

/** A member's join as the room hears of it. */
export interface RoomJoin {
  nodeId: string;
  username: string;
  /** The room's member count as the newcomer's list had it. */
  memberCount: number;
  /** The newcomer's list entry (a `RoomUser`) as JSON. */
  userJson: string;
}

/**
 * The frame that tells a room of one window's joins (in order): one join's `user_joined`, which
 * its newcomer is left out of, or a `users_joined` for several, to every member.
 */
export function joinsPayload(roomId: string, joins: readonly RoomJoin[]): string {
  const room = JSON.stringify(roomId);
  const last = joins[joins.length - 1];
  if (!last) throw new Error('no joins to publish');
  if (joins.length === 1) {
    return (
      `${payloadHeader(last.nodeId)}\n{"type":"user_joined","roomId":${room},` +
      `"username":${JSON.stringify(last.username)},"nodeId":${JSON.stringify(last.nodeId)},` +
      `"memberCount":${last.memberCount},"user":${last.userJson}}`
    );
  }
  const users = joins.map((join) => join.userJson).join(',');
  return `${payloadHeader()}\n{"type":"users_joined","roomId":${room},"memberCount":${last.memberCount},"users":[${users}]}`;
}

export class RoomChannels {
  private readonly local = new Map<string, Set<Connection>>();
  private readonly unsubscribers = new Map<string, Promise<() => Promise<void>>>();
  /** Joins held by {@link announceJoin}, per room, in order. */
  private readonly held = new Map<string, RoomJoin[]>();
  private flushTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly fanout: Fanout,
    private readonly windowMs = COALESCE_WINDOW_MS,
  ) {}

  /** Publishes `frame` to every member of `roomId`, on every process. */
  publish(roomId: string, frame: OutgoingFrame, options: RoomPublishOptions = {}): Promise<void> {
    return this.publishSerialized(roomId, JSON.stringify(frame), options);
  }

  /**
   * {@link publish} for a frame serialized already (`json` is the frame's JSON text). The joins
   * {@link announceJoin} holds for the room go out first.
   */
  publishSerialized(roomId: string, json: string, options: RoomPublishOptions = {}): Promise<void> {
    if (!this.fanout.inProcess) return this.publishPayload(roomId, json, options);
    try {
      this.deliverHere(roomId, new SharedFrame(json), options);
      return DELIVERED;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * {@link publishSerialized} for a frame encoded already (ws-frame.ts). With the in-process
   * fan-out it delivers within the call and returns nothing (a failure is thrown); otherwise it
   * returns the promise of the publish.
   */
  publishFrame(
    roomId: string,
    frame: SharedFrame,
    options: RoomPublishOptions = {},
  ): void | Promise<void> {
    if (!this.fanout.inProcess) return this.publishPayload(roomId, frame.text, options);
    this.deliverHere(roomId, frame, options);
  }

  /** One process: hands `frame` to the room's members here, after what the room holds. */
  private deliverHere(roomId: string, frame: SharedFrame, options: RoomPublishOptions): void {
    // In-process publishing delivers within the call, so what the room holds is out first.
    if (this.held.has(roomId)) void this.flush(roomId);
    const members = this.local.get(roomId);
    if (!members) return;
    const { exclude, closeRoom = false, onlyNodeId = '' } = options;
    this.deliverFrame(roomId, members, frame, exclude?.nodeId ?? '', closeRoom, onlyNodeId);
  }

  private async publishPayload(
    roomId: string,
    json: string,
    options: RoomPublishOptions,
  ): Promise<void> {
    const held = this.flush(roomId);
    const published = this.fanout.publish(channelOf(roomId), roomPayload(json, options));
    await Promise.all([held, published]);
  }

  /**
   * Tells the room of a member's join within {@link COALESCE_WINDOW_MS}: together with the room's
   * other joins of that window, or earlier if something else is published to the room.
   */
  announceJoin(roomId: string, join: RoomJoin): void {
    const held = this.held.get(roomId);
    if (held) held.push(join);
    else this.held.set(roomId, [join]);
    if (this.flushTimer === null) {
      this.flushTimer = setTimeout(() => this.flushAll(), this.windowMs);
      this.flushTimer.unref();
    }
  }

  /**
   * Publishes now the joins {@link announceJoin} holds for `roomId`. Anything that publishes to
   * the room by another path (the Redis message store's script) calls this first, in the same
   * turn, so that the room hears of joins before what follows them.
   */
  async flush(roomId: string): Promise<void> {
    const held = this.held.get(roomId);
    if (!held) return;
    this.held.delete(roomId);
    await this.fanout.publish(channelOf(roomId), joinsPayload(roomId, held));
  }

  private flushAll(): void {
    this.flushTimer = null;
    for (const roomId of [...this.held.keys()]) void this.flush(roomId).catch(() => undefined);
  }

  /** Adds a local member; subscribes this process to the room on its first local member. */
  async add(roomId: string, connection: Connection): Promise<void> {
    let members = this.local.get(roomId);
    if (!members) {
      members = new Set();
      this.local.set(roomId, members);
      this.unsubscribers.set(
        roomId,
        this.fanout.subscribe(channelOf(roomId), (payload) => this.deliver(roomId, payload)),
      );
    }
    members.add(connection);
    await this.unsubscribers.get(roomId);
  }

  /** Removes a local member; unsubscribes when the room has no local member left. */
  async remove(roomId: string, connection: Connection): Promise<void> {
    const members = this.local.get(roomId);
    if (!members) return;
    members.delete(connection);
    if (members.size > 0) return;
    this.local.delete(roomId);
    const unsubscribe = this.unsubscribers.get(roomId);
    this.unsubscribers.delete(roomId);
    if (unsubscribe) await (await unsubscribe)();
  }

  /** This process's members of `roomId`. */
  localMembers(roomId: string): ReadonlySet<Connection> {
    return this.local.get(roomId) ?? new Set();
  }

  /** Room ids with at least one local member. */
  localRooms(): string[] {
    return [...this.local.keys()];
  }

  private deliver(roomId: string, payload: string): void {
    const members = this.local.get(roomId);
    if (!members) return;
    const split = payload.indexOf('\n');
    const [excluded = '', close = '0', only = ''] = payload.slice(0, split).split('|');
    const frame = new SharedFrame(payload.slice(split + 1));
    this.deliverFrame(roomId, members, frame, excluded, close === '1', only);
  }

  /** Writes `frame` to the local members of `roomId` but `excluded` (or only to `only`). */
  private deliverFrame(
    roomId: string,
    members: Set<Connection>,
    frame: SharedFrame,
    excluded: string,
    closeRoom: boolean,
    only: string,
  ): void {
    for (const member of members) {
      if (member.nodeId === excluded) continue;
      if (only && member.nodeId !== only) continue;
      member.sendShared(frame);
    }
    if (closeRoom) {
      for (const member of members) if (member.roomId === roomId) member.roomId = null;
      void this.closeLocal(roomId);
    }
  }

  private async closeLocal(roomId: string): Promise<void> {
    this.local.delete(roomId);
    const unsubscribe = this.unsubscribers.get(roomId);
    this.unsubscribers.delete(roomId);
    if (unsubscribe) await (await unsubscribe)();
  }
}
