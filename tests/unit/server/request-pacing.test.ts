/**
 * Request pacing (server/lib/request-pacing.ts): a burst of requests reaches the handler at most
 * `requestsPerTurn` an event-loop turn, every request is answered in order of arrival, upgraded
 * sockets are never held, and HTTPS is paced the same way. Real sockets on 127.0.0.1.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, createServer, request, type IncomingMessage, type Server } from 'node:http';
import {
  Agent as HttpsAgent,
  createServer as createHttpsServer,
  request as httpsRequest,
} from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { paceRequests, type RequestPacingStats } from '../../../server/lib/request-pacing.js';
import { makeSelfSignedCertificate } from '../../support/certs.js';

const PER_TURN = 4;
const BURST = 40;

/** Counts event-loop turns: every request the handler gets is stamped with the current one. */
function turnCounter(): { current: () => number; stop: () => void } {
  let turn = 0;
  let running = true;
  const tick = () => {
    turn += 1;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return { current: () => turn, stop: () => (running = false) };
}

interface Harness {
  server: Server;
  stats: RequestPacingStats;
  /** The turn each request reached the handler in, by its path. */
  handled: { path: string; turn: number }[];
  port: number;
}

const servers: Server[] = [];
const cleanups: (() => void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

async function listen(server: Server, requestsPerTurn = PER_TURN): Promise<Harness> {
  const turns = turnCounter();
  cleanups.push(turns.stop);
  const handled: Harness['handled'] = [];
  server.on('request', (req: IncomingMessage, res) => {
    handled.push({ path: req.url ?? '', turn: turns.current() });
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  const stats = paceRequests(server, { requestsPerTurn });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, stats, handled, port: (server.address() as AddressInfo).port };
}

type Send = (path: string) => Promise<number>;

function httpSender(port: number, agent: Agent): Send {
  return (requestPath) =>
    new Promise((resolve, reject) => {
      const body = Buffer.alloc(2_000, 'x');
      request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: requestPath,
          agent,
          headers: { 'content-length': body.length },
        },
        (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        },
      )
        .on('error', reject)
        .end(body);
    });
}

/** The largest number of requests the handler got in one turn. */
function mostInOneTurn(handled: Harness['handled']): number {
  const perTurn = new Map<number, number>();
  for (const { turn } of handled) perTurn.set(turn, (perTurn.get(turn) ?? 0) + 1);
  return Math.max(...perTurn.values());
}

/** Opens `BURST` kept-alive connections, then sends `BURST` requests over them at once. */
async function burst(harness: Harness, send: Send): Promise<number[]> {
  await Promise.all(Array.from({ length: BURST }, (_, i) => send(`/warm/${i}`)));
  harness.handled.length = 0;
  return Promise.all(Array.from({ length: BURST }, (_, i) => send(`/burst/${i}`)));
}

describe('request pacing', () => {
  it('hands a burst to the handler a few requests a turn and answers every one', async () => {
    const harness = await listen(createServer({ keepAliveTimeout: 30_000 }));
    const agent = new Agent({ keepAlive: true, maxSockets: BURST });
    cleanups.push(() => agent.destroy());

    const statuses = await burst(harness, httpSender(harness.port, agent));

    expect(statuses).toEqual(Array.from({ length: BURST }, () => 200));
    expect(harness.handled).toHaveLength(BURST);
    expect(mostInOneTurn(harness.handled)).toBeLessThanOrEqual(PER_TURN);
    expect(harness.stats.deferred).toBeGreaterThan(0);
    expect(harness.stats.holds).toBeGreaterThan(0);
    // Nothing is left waiting or stopped once the burst is served.
    await expect.poll(() => [harness.stats.waiting, harness.stats.held]).toEqual([0, 0]);
  });

  it('changes nothing while a turn brings no more than its share', async () => {
    const harness = await listen(createServer({ keepAliveTimeout: 30_000 }));
    const agent = new Agent({ keepAlive: true, maxSockets: PER_TURN });
    cleanups.push(() => agent.destroy());
    const send = httpSender(harness.port, agent);

    for (let round = 0; round < 5; round += 1) {
      await Promise.all(Array.from({ length: PER_TURN }, (_, i) => send(`/calm/${round}/${i}`)));
    }

    expect(harness.handled).toHaveLength(5 * PER_TURN);
    expect(harness.stats).toMatchObject({ deferred: 0, holds: 0, held: 0, waiting: 0 });
  });

  it('serves a connection opened during a burst, and forgets clients that leave', async () => {
    const harness = await listen(createServer({ keepAliveTimeout: 30_000 }));
    const agent = new Agent({ keepAlive: true, maxSockets: BURST });
    const late = new Agent({ keepAlive: false });
    cleanups.push(
      () => agent.destroy(),
      () => late.destroy(),
    );
    const send = httpSender(harness.port, agent);
    await Promise.all(Array.from({ length: BURST }, (_, i) => send(`/warm/${i}`)));

    const inBurst = Array.from({ length: BURST }, (_, i) => send(`/burst/${i}`));
    // Some clients send a request and leave at once; the rest, and a newcomer, are still answered.
    const leavers = Array.from({ length: 5 }, (_, i) => {
      const socket = connect(harness.port, '127.0.0.1', () => {
        socket.write(`GET /gone/${i} HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`);
        socket.destroy();
      });
      return new Promise((resolve) => socket.on('close', resolve));
    });
    const newcomer = httpSender(harness.port, late)('/newcomer');
    await Promise.all(leavers);

    expect(await Promise.all(inBurst)).toEqual(Array.from({ length: BURST }, () => 200));
    expect(await newcomer).toBe(200);
    await expect.poll(() => [harness.stats.waiting, harness.stats.held]).toEqual([0, 0]);
    expect(mostInOneTurn(harness.handled)).toBeLessThanOrEqual(PER_TURN);
  });

  it('never holds an upgraded socket, and closes upgrades nobody else takes', async () => {
    const upgraded: Socket[] = [];
    const pauses: Socket[] = [];
    const server = createServer({ keepAliveTimeout: 30_000 });
    const harness = await listen(server);
    const agent = new Agent({ keepAlive: true, maxSockets: BURST });
    cleanups.push(() => agent.destroy());

    const upgrade = () =>
      new Promise<Socket>((resolve, reject) => {
        request({
          host: '127.0.0.1',
          port: harness.port,
          headers: { connection: 'upgrade', upgrade: 'test' },
        })
          .on('upgrade', (_response, socket) => resolve(socket))
          .on('error', () => reject(new Error('closed without an upgrade')))
          .end();
      });

    // Only the pacing listens: Node's own behaviour, the connection is closed.
    await expect(upgrade()).rejects.toThrow('closed without an upgrade');

    server.on('upgrade', (_request: IncomingMessage, socket: Socket) => {
      upgraded.push(socket);
      socket.on('pause', () => pauses.push(socket));
      cleanups.push(() => socket.destroy());
      socket.write(
        'HTTP/1.1 101 Switching Protocols\r\nconnection: upgrade\r\nupgrade: test\r\n\r\n',
      );
    });
    const client = await upgrade();
    cleanups.push(() => client.destroy());
    await burst(harness, httpSender(harness.port, agent));

    expect(harness.stats.holds).toBeGreaterThan(0);
    expect(upgraded).toHaveLength(1);
    expect(pauses).toEqual([]);
  });

  it('paces an HTTPS server on its TLS sockets', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sc-pacing-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const certificate = makeSelfSignedCertificate(dir, '127.0.0.1');
    const server = createHttpsServer({
      cert: readFileSync(certificate.cert),
      key: readFileSync(certificate.key),
      keepAliveTimeout: 30_000,
    });
    const harness = await listen(server);
    const agent = new HttpsAgent({ keepAlive: true, maxSockets: BURST, rejectUnauthorized: false });
    cleanups.push(() => agent.destroy());
    const send: Send = (requestPath) =>
      new Promise((resolve, reject) => {
        httpsRequest(
          { host: '127.0.0.1', port: harness.port, method: 'POST', path: requestPath, agent },
          (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode ?? 0));
          },
        )
          .on('error', reject)
          .end('x'.repeat(2_000));
      });

    const statuses = await burst(harness, send);

    expect(statuses).toEqual(Array.from({ length: BURST }, () => 200));
    expect(mostInOneTurn(harness.handled)).toBeLessThanOrEqual(PER_TURN);
    expect(harness.stats.holds).toBeGreaterThan(0);
  });

  it('refuses to wrap a server without exactly one request listener', () => {
    expect(() => paceRequests(createServer())).toThrow('expected one request listener, found 0');
  });
});
