/**
 * Network checks the Tor feature makes: is a loopback port free or open, is a bridge's address
 * reachable, does our own onion service answer through tor's SOCKS port (RFC 1928, domain-name
 * addressing so the onion name is resolved by tor, never by DNS).
 */
import net from 'node:net';

/** Resolves true when something accepts a TCP connection on host:port within `timeoutMs`. */
export function isPortOpen(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (open: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(open);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Resolves true when this process could listen on 127.0.0.1:port right now. */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ host: '127.0.0.1', port, exclusive: true }, () => {
      server.close(() => resolve(true));
    });
  });
}

/** Splits `1.2.3.4:443` or `[::1]:443`. */
export function splitAddress(address: string): { host: string; port: number } {
  const v6 = /^\[(.+)\]:(\d+)$/.exec(address);
  if (v6) return { host: v6[1]!, port: Number(v6[2]) };
  const index = address.lastIndexOf(':');
  return { host: address.slice(0, index), port: Number(address.slice(index + 1)) };
}

/**
 * Fetches `path` from `onion:port` through tor's SOCKS5 port and resolves with the HTTP status
 * line's code, or rejects (SOCKS refusal, timeout). The reply read is capped at 4 KiB.
 */
export function fetchThroughSocks(options: {
  socksPort: number;
  onion: string;
  port: number;
  path: string;
  timeoutMs: number;
}): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port: options.socksPort });
    let stage: 'greeting' | 'connect' | 'http' = 'greeting';
    let received = Buffer.alloc(0);
    const finish = (error: Error | null, status = 0) => {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(status);
    };
    const timer = setTimeout(() => finish(new Error('timed out')), options.timeoutMs);
    socket.once('error', (error) => finish(error));
    socket.once('connect', () => socket.write(Buffer.from([5, 1, 0])));
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]).subarray(0, 4096);
      if (stage === 'greeting' && received.length >= 2) {
        if (received[0] !== 5 || received[1] !== 0) return finish(new Error('SOCKS refused'));
        received = received.subarray(2);
        stage = 'connect';
        const host = Buffer.from(options.onion, 'ascii');
        const request = Buffer.concat([
          Buffer.from([5, 1, 0, 3, host.length]),
          host,
          Buffer.from([options.port >> 8, options.port & 0xff]),
        ]);
        socket.write(request);
        return;
      }
      if (stage === 'connect' && received.length >= 10) {
        if (received[1] !== 0) return finish(new Error(`SOCKS error ${received[1]}`));
        received = received.subarray(10);
        stage = 'http';
        socket.write(
          `GET ${options.path} HTTP/1.1\r\nHost: ${options.onion}\r\nConnection: close\r\n\r\n`,
        );
        return;
      }
      if (stage === 'http') {
        const match = /^HTTP\/1\.[01] (\d{3})/.exec(received.toString('latin1'));
        if (match) finish(null, Number(match[1]));
      }
    });
    socket.once('end', () => finish(new Error('closed before an HTTP answer')));
  });
}
