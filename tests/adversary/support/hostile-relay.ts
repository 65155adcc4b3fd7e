/**
 * A hostile relay: a WebSocket man in the middle between the members and the real server
 * (tests/support/startServer). To a member it is the server — it sees, drops, rewrites and
 * injects every frame in either direction — which is exactly what a compromised server can do.
 * No seam in the product is needed, so nothing of it can be left on in production.
 *
 * Hooks return the frames to pass on (none to drop, several to duplicate); every frame that
 * passes, and every injected one, is recorded in `captured`.
 */
import { WebSocket, WebSocketServer } from 'ws';

export interface Frame {
  type: string;
  [key: string]: unknown;
}

/** One member's connection through the relay. */
export interface RelayLink {
  index: number;
  /** The member's node id, once the server named it in room_joined. */
  nodeId: string | null;
  /** Sends a frame to the member as if the server had sent it. */
  injectToClient(frame: Frame): void;
  /** Sends a frame to the server as if the member had sent it. */
  injectToServer(frame: Frame): void;
}

export interface RelayHooks {
  toClient?: (frame: Frame, link: RelayLink) => Frame[];
  toServer?: (frame: Frame, link: RelayLink) => Frame[];
}

export interface CapturedFrame {
  direction: 'to-client' | 'to-server';
  link: number;
  frame: Frame;
}

export class HostileRelay {
  hooks: RelayHooks = {};
  readonly captured: CapturedFrame[] = [];
  readonly links: RelayLink[] = [];
  readonly #sockets = new Set<WebSocket>();

  private constructor(
    private readonly server: WebSocketServer,
    readonly url: string,
  ) {}

  /** Listens on 127.0.0.1, port 0, in front of `upstreamUrl` (the real server's /chat-ws). */
  static async start(upstreamUrl: string): Promise<HostileRelay> {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('unexpected address');
    const relay = new HostileRelay(server, `ws://127.0.0.1:${address.port}/chat-ws`);
    server.on('connection', (client) => relay.#bridge(client, upstreamUrl));
    return relay;
  }

  /** Every frame of one direction and type that passed (or was injected), in order. */
  framesOf(direction: CapturedFrame['direction'], type: string): CapturedFrame[] {
    return this.captured.filter((item) => item.direction === direction && item.frame.type === type);
  }

  #bridge(client: WebSocket, upstreamUrl: string): void {
    const upstream = new WebSocket(upstreamUrl);
    this.#sockets.add(client);
    this.#sockets.add(upstream);
    const toUpstream: string[] = [];
    const sendUp = (frame: Frame) => {
      this.captured.push({ direction: 'to-server', link: link.index, frame });
      const text = JSON.stringify(frame);
      if (upstream.readyState === WebSocket.OPEN) upstream.send(text);
      else toUpstream.push(text);
    };
    const sendDown = (frame: Frame) => {
      this.captured.push({ direction: 'to-client', link: link.index, frame });
      if (client.readyState === WebSocket.OPEN) client.send(JSON.stringify(frame));
    };
    const link: RelayLink = {
      index: this.links.length,
      nodeId: null,
      injectToClient: sendDown,
      injectToServer: sendUp,
    };
    this.links.push(link);
    upstream.on('open', () => {
      for (const text of toUpstream.splice(0)) upstream.send(text);
    });
    upstream.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Frame;
      if (frame.type === 'room_joined' && typeof frame.nodeId === 'string')
        link.nodeId = frame.nodeId;
      for (const out of this.hooks.toClient?.(frame, link) ?? [frame]) sendDown(out);
    });
    client.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Frame;
      for (const out of this.hooks.toServer?.(frame, link) ?? [frame]) sendUp(out);
    });
    client.on('close', () => upstream.close());
    upstream.on('close', () => client.close());
    client.on('error', () => undefined);
    upstream.on('error', () => undefined);
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
