/**
 * One client socket as the hub sees it. Handlers get this object, never the `ws` socket, so the
 * room logic knows nothing of the socket library (the tldraw `WebSocketMinimal` idea).
 */
import { randomUUID } from 'node:crypto';
import { visitorKey } from '../lib/visitor.js';
import type { TokenBucket } from './token-bucket.js';
import { BatchedSocket, batchThisTurn, type Corkable } from './write-batch.js';
import { encodeTextFrame, encodeTextFrameParts, type SharedFrame } from './ws-frame.js';

/** What the hub needs from a socket: `ws` and test doubles both satisfy it. */
export interface SocketLike {
  readonly readyState: number;
  readonly bufferedAmount: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/**
 * The TCP socket under a WebSocket (`request.socket` of the upgrade). Frames encoded once for a
 * whole room are written to it directly; `ws` writes everything else to the same socket, so the
 * order of frames is kept (docs/decisions.md).
 */
export interface FrameTransport {
  readonly writable: boolean;
  write(frame: Uint8Array): boolean;
  /** With these, a turn's frames to this socket leave in one system call (write-batch.ts). */
  cork?(): void;
  uncork?(): void;
}

/** The identity a key holder proved with a session token. */
export interface ConnectionIdentity {
  keyId: string;
  username: string;
  level: 'admin' | 'user' | 'observer' | 'guest';
  capabilities: string[];
}

/** Any server frame: an object with a `type`. */
export type OutgoingFrame = { type: string } & Record<string, unknown>;

const isCorkable = (transport: FrameTransport): transport is FrameTransport & Corkable =>
  typeof transport.cork === 'function' && typeof transport.uncork === 'function';

const OPEN = 1;
/** A socket whose unsent data exceeds this is too slow to keep; it is closed (1013). */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

export class Connection {
  /** Random per connection; members see it, so it reveals nothing about the user. */
  readonly nodeId = `node_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  /** Milliseconds since the epoch. */
  readonly connectedAt = Date.now();
  /**
   * The key session this socket speaks for. Set by `join_room` (the room identity, fixed while
   * the socket is in the room) and by `session_auth`, which is refused while the socket is in a
   * room under another identity (DESIGN.md principle 9).
   */
  identity: ConnectionIdentity | null = null;
  username: string | null = null;
  roomId: string | null = null;
  /**
   * Every key this socket has proved a session of, the current one included (null: none yet).
   * Revoking any of them closes the socket, whatever it speaks for now.
   */
  private provedKeys: Set<string> | null = null;

  /** Records that this socket proved a session of `keyId` (see {@link hasProved}). */
  proved(keyId: string): void {
    (this.provedKeys ??= new Set()).add(keyId);
  }

  /** True when this socket has ever proved a session of `keyId`. */
  hasProved(keyId: string): boolean {
    return this.identity?.keyId === keyId || (this.provedKeys?.has(keyId) ?? false);
  }
  /**
   * The hub's bookkeeping, kept on the connection rather than in maps beside it (every open socket
   * pays for it): the flood limit, rejections in the current flood, and the tail of the queue of
   * frames being handled in order (null when idle).
   */
  bucket: TokenBucket | null = null;
  rejectedFrames = 0;
  frameQueue: Promise<void> | null = null;
  /** Frames received and not yet handled (the queue above is cleared when it reaches 0). */
  queuedFrames = 0;

  constructor(
    private readonly socket: SocketLike,
    readonly remoteAddress: string,
    readonly path: string,
    /**
     * Null for sockets without one (test doubles): shared frames then go through `send`. Read
     * outside only to name the visitor (an onion circuit is known by its socket).
     */
    readonly transport: FrameTransport | null = null,
    /**
     * Who opened it (server/lib/visitor.ts), named when the upgrade was admitted: every
     * per-visitor limit and sanction on sockets counts this, never the exact address.
     */
    readonly visitor: string = visitorKey(remoteAddress),
  ) {
    this.corkable = transport && isCorkable(transport) ? new BatchedSocket(transport) : null;
  }

  /** The transport when it can be corked (write-batch.ts), else null; decided once. */
  private readonly corkable: BatchedSocket | null;

  get isOpen(): boolean {
    return this.socket.readyState === OPEN;
  }

  /** Sends an object; serialized here. Use {@link sendRaw} for an already-serialized payload. */
  send(frame: OutgoingFrame): void {
    this.sendRaw(JSON.stringify(frame));
  }

  /**
   * Sends an already-serialized payload. Framed here and written to the TCP socket like the
   * shared frames (one buffer, one stream write), rather than through `ws`'s sender (a header
   * buffer and the string, two stream writes); the bytes on the wire are the same.
   */
  sendRaw(payload: string): void {
    if (!this.canSend()) return;
    const transport = this.transport;
    if (!transport?.writable) {
      this.socket.send(payload);
      return;
    }
    if (this.corkable) batchThisTurn(this.corkable);
    transport.write(encodeTextFrame(payload));
  }

  /**
   * Sends one frame whose JSON text is `head`, the UTF-8 text in `body`, then `tail`, like
   * {@link sendRaw}; `body`'s bytes go to the TCP socket without a copy (a kept member list).
   */
  sendParts(head: string, body: Buffer, tail: string): void {
    if (!this.canSend()) return;
    const transport = this.transport;
    if (!transport?.writable) {
      this.socket.send(head + body.toString('utf8') + tail);
      return;
    }
    if (this.corkable) batchThisTurn(this.corkable);
    for (const part of encodeTextFrameParts(head, body, tail)) transport.write(part);
  }

  /**
   * Room frames held back while this connection joins (null: none held). See {@link holdRoomFrames}.
   */
  private held: SharedFrame[] | null = null;

  /**
   * Holds room frames back until {@link releaseRoomFrames}: a newcomer is subscribed to its room
   * before the member list is read, and the changes published meanwhile must reach it after that
   * list, not before (a user_joined overtaken by an older list would be lost).
   */
  holdRoomFrames(): void {
    this.held ??= [];
  }

  /**
   * Sends the room frames held since {@link holdRoomFrames}, in order, but those `skip` says the
   * joiner has already (a message that is also in `room_joined`), and stops holding.
   */
  releaseRoomFrames(skip?: (frame: SharedFrame) => boolean): void {
    const held = this.held;
    this.held = null;
    for (const frame of held ?? []) if (!skip?.(frame)) this.sendShared(frame);
  }

  /** Sends a frame encoded once for many receivers: its bytes go straight to the TCP socket. */
  sendShared(frame: SharedFrame): void {
    if (this.held) {
      this.held.push(frame);
      return;
    }
    if (!this.canSend()) return;
    // Once per member of every room event: the transport is looked at once, and nothing here
    // allocates (the frame's bytes are shared).
    const transport = this.transport;
    if (transport?.writable) {
      if (this.corkable) batchThisTurn(this.corkable);
      transport.write(frame.bytes());
    } else {
      this.socket.send(frame.text);
    }
  }

  private canSend(): boolean {
    if (!this.isOpen) return false;
    // `ws` counts what waits in the TCP socket's buffer, shared frames included.
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      // A reader this far behind would make the server hold unbounded memory for it.
      this.socket.close(1013, 'Too slow');
      return false;
    }
    return true;
  }

  close(code: number, reason: string): void {
    if (this.socket.readyState <= OPEN) this.socket.close(code, reason);
  }
}
