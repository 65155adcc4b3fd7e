/**
 * Resident memory of the server as `npm start` runs it (issue 22, target 6): `sh scripts/start.sh`,
 * which becomes `node scripts/start.mjs` (the compiled server, dist-server/, built first if stale)
 * on a fresh embedded database in a throwaway DATA_DIR, no users. Idle RSS is the least of several VmRSS samples after
 * a pause; then N idle sockets connect and join public rooms (the rooms are created over HTTP,
 * ROOM_SIZE members each, so that the joins do not fill one room with a quadratic user list), and
 * RSS is read again. No forced garbage collection: this is what an operator sees.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { RoomSchema } from '../../../shared/protocol/http/rooms.js';
import { sleep } from '../context.js';
import { BenchClient, closeAll } from '../load/clients.js';
import { rssBytes } from '../process-stats.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const ROOM_SIZE = 20;
/** The per-address room creation limit of `POST /api/rooms` (10 per 10 minutes). */
const ROOMS_PER_ADDRESS = 10;
const SOCKETS_PER_ADDRESS = 500;

export interface StartMemoryResult {
  idleRssBytes: number;
  socketRssBytes: number;
  sockets: number;
  startMs: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

function post(port: number, pathname: string, body: unknown, localAddress: string) {
  const text = JSON.stringify(body);
  return new Promise<unknown>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: pathname,
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (res) => {
        let data = '';
        res.on('data', (chunk: Buffer) => (data += chunk.toString()));
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(JSON.parse(data))
            : reject(new Error(`POST ${pathname}: ${res.statusCode} ${data.slice(0, 200)}`)),
        );
      },
    );
    req.once('error', reject);
    req.end(text);
  });
}

async function leastRss(pid: number, samples: number, gapMs: number): Promise<number> {
  let least = Number.POSITIVE_INFINITY;
  for (let i = 0; i < samples; i += 1) {
    if (i > 0) await sleep(gapMs);
    least = Math.min(least, rssBytes(pid));
  }
  return least;
}

export async function measureStartMemory(options: {
  sockets: number;
  settleMs: number;
  progress: (message: string) => void;
}): Promise<StartMemoryResult> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'scbench-start-'));
  const port = await freePort();
  const started = performance.now();
  // What `npm start` runs: the launcher becomes `node scripts/start.mjs` (same pid).
  const child = spawn('sh', ['scripts/start.sh'], {
    cwd: ROOT,
    env: {
      NODE: process.execPath,
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_PASSWORD: 'bench-start-memory-password',
      LOG_LEVEL: 'warn',
      // The bench's clients share a few loopback addresses (500 sockets each).
      MAX_SOCKETS_PER_ADDRESS: String(SOCKETS_PER_ADDRESS),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-5000)));
  const clients: BenchClient[] = [];
  try {
    const pid = child.pid;
    if (pid === undefined) throw new Error('npm start has no pid');
    options.progress('npm start: waiting for /api/ping');
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited: ${stderr}`);
      if (performance.now() - started > 120_000) throw new Error('npm start did not answer');
      const ok = await fetch(`http://127.0.0.1:${port}/api/ping`).then(
        (res) => res.ok,
        () => false,
      );
      if (ok) break;
      await sleep(200);
    }
    const startMs = performance.now() - started;
    await sleep(options.settleMs);
    const idleRssBytes = await leastRss(pid, 5, 500);

    options.progress(`npm start: ${options.sockets} idle sockets`);
    const roomCount = Math.ceil(options.sockets / ROOM_SIZE);
    const rooms: string[] = [];
    for (let i = 0; i < roomCount; i += 1) {
      const address = `127.0.0.${2 + Math.floor(i / ROOMS_PER_ADDRESS)}`;
      const room = RoomSchema.parse(
        await post(port, '/api/rooms', { name: `bench-${i + 1}` }, address),
      );
      rooms.push(room.id);
    }
    const wsUrl = `ws://127.0.0.1:${port}/chat-ws`;
    for (let i = 0; i < options.sockets; i += 1) {
      const address = `127.0.0.${2 + Math.floor(i / SOCKETS_PER_ADDRESS)}`;
      const client = await BenchClient.connect(wsUrl, address);
      clients.push(client);
      await client.join('securechannel', z.string().parse(rooms[Math.floor(i / ROOM_SIZE)]));
    }
    await sleep(options.settleMs);
    const socketRssBytes = await leastRss(pid, 5, 500);
    return { idleRssBytes, socketRssBytes, sockets: options.sockets, startMs };
  } finally {
    await closeAll(clients);
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  }
}
