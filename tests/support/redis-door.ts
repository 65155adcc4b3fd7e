/**
 * A TCP relay in front of Redis (tests/faults): a server that connects to Redis through it can be
 * kept out for a while (`isHeld`: new connections are refused, those open stay), and the relay
 * knows the local port of each of its connections to Redis, which is how Redis's `CLIENT LIST`
 * names them (`addr=127.0.0.1:<port>`).
 */
import { connect, createServer, type Server as TcpServer, type Socket } from 'node:net';

export interface RedisDoor {
  url: string;
  isHeld: boolean;
  /** The local ports of the relay's open connections to Redis. */
  upstreamPorts(): Set<number>;
  /**
   * Stops passing bytes either way on the connection whose local port to Redis is `port`, and
   * keeps it open: a half-open connection, as a vanished peer or a dropped NAT entry leaves.
   */
  freeze(port: number): boolean;
  close(): Promise<void>;
}

export async function startRedisDoor(redisUrl: string): Promise<RedisDoor> {
  const target = Number(new URL(redisUrl).port);
  const upstreams = new Set<Socket>();
  const pairs = new Map<Socket, Socket>();
  const door: RedisDoor = {
    url: '',
    isHeld: false,
    upstreamPorts: () =>
      new Set([...upstreams].flatMap((socket) => (socket.localPort ? [socket.localPort] : []))),
    freeze: (port) => {
      const upstream = [...upstreams].find((socket) => socket.localPort === port);
      const socket = upstream && pairs.get(upstream);
      if (!upstream || !socket) return false;
      socket.unpipe(upstream);
      upstream.unpipe(socket);
      socket.pause();
      upstream.pause();
      return true;
    },
    close: async () => undefined,
  };
  const server: TcpServer = createServer((socket) => {
    if (door.isHeld) {
      socket.destroy();
      return;
    }
    const upstream = connect(target, '127.0.0.1');
    upstreams.add(upstream);
    pairs.set(upstream, socket);
    socket.pipe(upstream);
    upstream.pipe(socket);
    const end = () => {
      upstreams.delete(upstream);
      pairs.delete(upstream);
      socket.destroy();
      upstream.destroy();
    };
    socket.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  door.url = `redis://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  door.close = () =>
    new Promise((resolve) => {
      for (const upstream of upstreams) upstream.destroy();
      server.close(() => resolve());
    });
  return door;
}
