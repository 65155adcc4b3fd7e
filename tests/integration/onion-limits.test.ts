/**
 * Onion visitors are not one visitor (Tor issue, item 6). tor forwards every onion stream from
 * loopback, so per-address limits would put all Tor users in one bucket. The onion entrance reads
 * the circuit tor names in its PROXY line (`HiddenServiceExportCircuitID haproxy`) and every limit
 * counts per circuit: one flooding onion client fills its own buckets, not another's. These tests
 * speak to the entrance exactly as tor does, over real TCP.
 */
import http from 'node:http';
import net from 'node:net';
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCircuitLine } from '../../server/features/tor/index.js';
import { startServer, type TestServer } from '../support/server.js';

const servers: TestServer[] = [];
const open: WebSocket[] = [];
afterEach(async () => {
  for (const socket of open.splice(0)) socket.terminate();
  for (const server of servers.splice(0)) await server.stop();
});

/** The line tor writes ahead of a stream on global circuit `id` (tor(1), haproxy format). */
function proxyLine(id: number): string {
  const high = (id >>> 16).toString(16);
  const low = (id & 0xffff).toString(16);
  return `PROXY TCP6 fc00:dead:beef:4dad::${high}:${low} ::1 65535 80\r\n`;
}

interface Entrance {
  host: string;
  port: number;
}

async function start(env: Record<string, string>, loginRatePerMinute = 30) {
  const server = await startServer({ env, deps: { loginRatePerMinute } });
  servers.push(server);
  const entrance = await server.onionEntrance.listen('127.0.0.1');
  return { server, entrance };
}

/** A TCP connection to the entrance that opens, as tor's would, with the circuit's PROXY line. */
function viaCircuit(entrance: Entrance, circuit: number): net.Socket {
  const socket = net.connect(entrance.port, entrance.host);
  socket.write(proxyLine(circuit));
  return socket;
}

/** Opens a realtime socket on `circuit`: 101, or the refusal's status. */
function onionUpgrade(entrance: Entrance, circuit: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://abcdefghijklmnop.onion/chat-ws`, {
      createConnection: () => viaCircuit(entrance, circuit),
    });
    socket.once('open', () => {
      open.push(socket);
      resolve(101);
    });
    socket.once('unexpected-response', (_request, response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    socket.once('error', reject);
  });
}

/** An HTTP request over `circuit`; the status and JSON body. */
function onionRequest(
  entrance: Entrance,
  circuit: number,
  options: { method?: string; path: string; body?: unknown; headers?: Record<string, string> },
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const request = http.request(
      {
        method: options.method ?? 'GET',
        path: options.path,
        headers: {
          host: 'abcdefghijklmnop.onion',
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...options.headers,
        },
        createConnection: () => viaCircuit(entrance, circuit),
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : null }),
        );
      },
    );
    request.once('error', reject);
    request.end(payload);
  });
}

describe('PROXY lines from tor', () => {
  it('reads the circuit address and refuses anything tor would not write', () => {
    expect(parseCircuitLine('PROXY TCP6 fc00:dead:beef:4dad::ffff:ffff ::1 65535 42')).toBe(
      'fc00:dead:beef:4dad::ffff:ffff',
    );
    expect(parseCircuitLine(proxyLine(7).trimEnd())).toBe('fc00:dead:beef:4dad::0:7');
    for (const line of [
      'PROXY TCP4 127.0.0.1 127.0.0.1 1 2',
      'PROXY TCP6 2001:db8::1 ::1 65535 42',
      'PROXY TCP6 fc00:dead:beef:4dad::1:2:3 ::1 1 2',
      'PROXY UNKNOWN',
      'GET / HTTP/1.1',
    ]) {
      expect(parseCircuitLine(line)).toBeNull();
    }
  });

  it('closes a connection that does not open with a PROXY line, without an answer', async () => {
    const { entrance } = await start({});
    const socket = net.connect(entrance.port, entrance.host);
    socket.write('GET /api/service-status HTTP/1.1\r\nHost: x.onion\r\n\r\n');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    await new Promise((resolve) => socket.once('close', resolve));
    expect(received).toBe('');
  });

  it('serves the app through the entrance and reports the visitor as a Tor user', async () => {
    const { entrance } = await start({});
    const status = await onionRequest(entrance, 1, { path: '/api/service-status' });
    expect(status.status).toBe(200);
    const privacy = await onionRequest(entrance, 1, {
      path: '/api/privacy/check',
      headers: { host: 'localhost' }, // tor's stream is onion whatever the Host says
    });
    expect(privacy.status).toBe(200);
    expect(privacy.body).toMatchObject({ isTor: true, source: 'onion', ip: 'Unknown' });
  });
});

describe('one flooding onion client does not lock out another', () => {
  it('caps sockets per circuit, with all onion sockets together under MAX_ONION_SOCKETS', async () => {
    const { entrance } = await start({ MAX_SOCKETS_PER_ADDRESS: '3', MAX_ONION_SOCKETS: '5' });
    // Circuit 1 floods: three sockets, then refused.
    for (let i = 0; i < 3; i += 1) expect(await onionUpgrade(entrance, 1)).toBe(101);
    expect(await onionUpgrade(entrance, 1)).toBe(429);
    expect(await onionUpgrade(entrance, 1)).toBe(429);
    // Circuit 2 is another visitor: it gets in while circuit 1 is at its cap.
    expect(await onionUpgrade(entrance, 2)).toBe(101);
    expect(await onionUpgrade(entrance, 2)).toBe(101);
    // Five onion sockets are open: the global onion cap now holds for every circuit.
    expect(await onionUpgrade(entrance, 3)).toBe(429);
    // A socket closing frees its circuit's slot and the onion slot.
    const first = open.shift()!;
    await new Promise((resolve) => {
      first.once('close', resolve);
      first.close();
    });
    await expect.poll(() => onionUpgrade(entrance, 3), { timeout: 5000 }).toBe(101);
  });

  it('rate-limits HTTP per circuit, and forwarding headers cannot move a circuit to another bucket', async () => {
    const { server, entrance } = await start({ TRUST_PROXY: 'true' }, 4);
    const challenge = (circuit: number, headers: Record<string, string> = {}) =>
      onionRequest(entrance, circuit, {
        method: 'POST',
        path: '/api/auth/challenge',
        body: { keyId: 'no-such-key' },
        headers,
      });
    // Circuit 1 uses its four requests, each claiming a different forwarded address.
    for (let i = 0; i < 4; i += 1) {
      const answer = await challenge(1, { 'x-forwarded-for': `203.0.113.${i}` });
      expect(answer.status).not.toBe(429);
    }
    const refused = await challenge(1, { 'x-forwarded-for': '203.0.113.99' });
    expect(refused.status).toBe(429);
    // Circuit 2, and a visitor not on Tor, still have theirs.
    expect((await challenge(2)).status).not.toBe(429);
    const direct = await fetch(`${server.baseUrl}/api/auth/challenge`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ keyId: 'no-such-key' }),
    });
    expect(direct.status).not.toBe(429);
  });
});
