/**
 * A room member in Node that runs the REAL browser classes — RoomKeyManager, E2eeMessageCipher,
 * the identity checks — over a real WebSocket, wired exactly as client/features/e2ee/
 * use-room-e2ee.ts wires them to the chat socket. Used as an honest member, or, with its frames
 * rewritten, as a hostile one.
 */
import WebSocket from 'ws';
import { identitySignerFromKeyFile } from '../../../client/features/e2ee/bundle-identity.js';
import { CryptoLog } from '../../../client/features/e2ee/crypto-log.js';
import { E2eeMessageCipher } from '../../../client/features/e2ee/e2ee-message-cipher.js';
import {
  httpIdentityRegistry,
  MemoryPinStore,
} from '../../../client/features/e2ee/identity-trust.js';
import { RoomKeyManager } from '../../../client/features/e2ee/room-key-manager.js';
import { type DecryptedMessage, type SendControl } from '../../../client/lib/message-cipher.js';
import { type KeyFile } from '../../../shared/crypto/key-file-schema.js';
import { ServerFrameSchema } from '../../../shared/protocol/ws/server-frames.js';
import { type Message } from '../../../shared/protocol/ws/chat.js';

export interface NodeMemberOptions {
  /** The socket URL: the real server's, or a hostile relay's in front of it. */
  url: string;
  /** The server's base URL, for the key registry. */
  baseUrl: string;
  /** The room's secure id. */
  roomId: string;
  username: string;
  keyFile?: KeyFile | null;
  sessionToken?: string | null;
  pins?: MemoryPinStore;
  /** False: return as soon as the join is sent (a relay may withhold room_joined). */
  awaitJoin?: boolean;
  /** The room is locked, as the room lookup tells a browser. */
  isLocked?: boolean;
}

type Listener = (frame: Record<string, unknown> & { type: string }) => void;

export class NodeMember {
  readonly log = new CryptoLog();
  readonly pins: MemoryPinStore;
  readonly manager: RoomKeyManager;
  readonly cipher: E2eeMessageCipher;
  readonly messages: Message[] = [];
  readonly errors: string[] = [];
  nodeId = '';
  readonly #listeners = new Set<Listener>();

  private constructor(
    readonly socket: WebSocket,
    readonly options: NodeMemberOptions,
  ) {
    this.pins = options.pins ?? new MemoryPinStore();
    this.manager = new RoomKeyManager({ now: Date.now, log: this.log, pins: this.pins });
    this.cipher = new E2eeMessageCipher(this.manager, { joinWaitMs: 5000, senderKeyWaitMs: 3000 });
  }

  static async join(options: NodeMemberOptions): Promise<NodeMember> {
    const socket = new WebSocket(options.url);
    const member = new NodeMember(socket, options);
    member.#wire();
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    await member.manager.initialize();
    if (options.keyFile)
      await member.manager.setIdentity(identitySignerFromKeyFile(options.keyFile));
    if (options.sessionToken) {
      const fetcher: typeof fetch = (input, init) =>
        fetch(`${options.baseUrl}${String(input)}`, init);
      member.manager.setRegistry(httpIdentityRegistry(options.sessionToken, fetcher));
    }
    const joined = member.next('room_joined');
    member.send({
      type: 'join_room',
      roomId: options.roomId,
      username: options.username,
      sessionToken: options.sessionToken ?? null,
    });
    if (options.awaitJoin === false) {
      joined.catch(() => undefined);
      return member;
    }
    await joined;
    await member.waitFor(() => member.manager.room !== null);
    return member;
  }

  #wire(): void {
    const { manager, socket } = this;
    manager.setTransport({
      announce: (bundle) => this.send({ type: 'key_announce', bundle }),
      sendSenderKey: (targetNodeId, envelope) =>
        this.send({ type: 'sender_key', targetNodeId, envelope }),
    });
    socket.on('message', (data) => {
      const parsed = ServerFrameSchema.safeParse(JSON.parse(data.toString()));
      if (!parsed.success) return;
      const frame = parsed.data;
      switch (frame.type) {
        case 'room_joined':
          this.nodeId = frame.nodeId;
          this.messages.push(...frame.messages);
          void manager.joinRoom({
            roomId: frame.roomId,
            secureId: this.options.roomId,
            nodeId: frame.nodeId,
            accessCode: null,
            isLocked: this.options.isLocked ?? false,
          });
          break;
        case 'key_bundles':
          void manager.handleBundles(frame.bundles);
          break;
        case 'key_announce':
          void manager.handleAnnounce(frame.fromNodeId, frame.username, frame.bundle);
          break;
        case 'sender_key':
          void manager.handleSenderKey(frame.fromNodeId, frame.envelope);
          break;
        case 'user_joined':
          if (frame.user) void manager.handleMembersJoined([frame.user]);
          break;
        case 'users_joined':
          void manager.handleMembersJoined(frame.users);
          break;
        case 'user_left':
          void manager.handleMemberLeft(frame.nodeId);
          break;
        case 'user_list_update':
          void manager.setRoster(frame.users);
          break;
        case 'new_message':
          this.messages.push(frame.message);
          break;
        case 'error':
          this.errors.push(frame.message);
          break;
        default:
          break;
      }
      for (const listener of [...this.#listeners]) listener(frame as never);
    });
  }

  send(frame: unknown): boolean {
    if (this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(frame));
    return true;
  }

  /** Calls `listener` with every frame from now on (after the manager saw it); returns the off. */
  on(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The next frame of `type` (from now on), within `timeoutMs`. */
  next(type: string, timeoutMs = 10_000): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#listeners.delete(listener);
        reject(new Error(`no ${type} frame within ${timeoutMs} ms`));
      }, timeoutMs);
      const listener: Listener = (frame) => {
        if (frame.type !== type) return;
        clearTimeout(timer);
        this.#listeners.delete(listener);
        resolve(frame);
      };
      this.#listeners.add(listener);
    });
  }

  /** Resolves once `predicate` holds (checked on every manager change and frame). */
  async waitFor(predicate: () => boolean, timeoutMs = 15_000): Promise<void> {
    const start = Date.now();
    while (!predicate()) {
      if (Date.now() - start > timeoutMs) throw new Error('condition not reached in time');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Encrypts and sends a text as the chat does; resolves with the frame that left. */
  async say(text: string, control?: SendControl): Promise<Record<string, unknown>> {
    const outgoing = await this.cipher.encrypt({ v: 1, text }, control);
    const frame = {
      type: 'send_message',
      ...outgoing,
      isStealthMode: false,
      hasImage: false,
      imageUrl: null,
      thumbnailUrl: null,
    };
    this.send(frame);
    return frame;
  }

  /** The first received message matching `predicate`, waiting for it. */
  async message(predicate: (message: Message) => boolean, timeoutMs = 15_000): Promise<Message> {
    await this.waitFor(() => this.messages.some(predicate), timeoutMs);
    return this.messages.find(predicate)!;
  }

  read(message: Message): Promise<DecryptedMessage> {
    return this.cipher.decrypt(message);
  }

  logText(): string {
    return this.log
      .getEntries()
      .map((entry) => entry.text)
      .join('\n');
  }

  close(): void {
    this.socket.terminate();
  }
}
