/**
 * The SecureChannel server as the bench runs it, compiled to JavaScript with the server as `npm
 * start` runs it (server-process.ts; through tsx when started from its source): the real
 * buildServer with the embedded database in a data folder on disk, as `npm start` keeps it (or
 * PostgreSQL when DATABASE_URL is set), quiet logs (to stderr) and login/room-creation limits
 * raised so that the load generator, which is one machine, is not mistaken for an attacker.
 * Everything else (hub frame limits, global per-address HTTP limit, validation, presence, storage)
 * is the product as shipped. With REDIS_URL the shared state (fan-out, presence, messages, limits)
 * lives in Redis under REDIS_PREFIX, as in a multi-process deployment.
 *
 * Not in memory: an in-memory PGlite keeps its files in growing typed arrays, and the copies it
 * leaves as it grows them (hundreds of MB while 1,000 members join) made V8 run a full collection
 * during the measured window, which the shipped server never does for that reason
 * (docs/benchmarks.md, "Issue 36: the tail at 2,500 msg/s").
 *
 * Env: DATA_DIR (the folder; when unset, a fresh temporary one, removed on exit), ADMIN_PASSWORD,
 * MESSAGE_TTL_SECONDS, LOG_LEVEL (default warn), DATABASE_URL, REDIS_URL, REDIS_PREFIX,
 * BENCH_ROOMS (extra public rooms to create before listening; with a database shared by several
 * processes, one of them creates the rooms and the others get 0). Prints one JSON line on stdout:
 * `{"url":"http://127.0.0.1:<port>","wsPath":"/chat-ws","rooms":[<room ids>]}` (the default room
 * and the rooms this process created). Stops on SIGTERM, SIGINT or when its stdin closes (the
 * bench went away).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { collectOnSignal, recordGcPauses } from './gc-on-signal.js';
import pino from 'pino';
import { buildServer } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { openDatabase } from '../../server/db/connect.js';

/** The repository: two folders up from the source, three from the compiled copy in dist-server/. */
const ROOT = path.resolve(
  import.meta.dirname,
  path.basename(path.resolve(import.meta.dirname, '../..')) === 'dist-server'
    ? '../../..'
    : '../..',
);
const UNLIMITED = 1_000_000_000;

async function main(): Promise<void> {
  const ownDataDir =
    process.env.DATA_DIR || process.env.DATABASE_URL
      ? null
      : mkdtempSync(path.join(os.tmpdir(), 'securechannel-bench-data-'));
  if (ownDataDir) process.once('exit', () => rmSync(ownDataDir, { recursive: true, force: true }));
  const dataDir = process.env.DATA_DIR ?? ownDataDir ?? '';
  const config = loadConfig(
    {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: process.env.ADMIN_PASSWORD,
      MESSAGE_TTL_SECONDS: process.env.MESSAGE_TTL_SECONDS,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL,
      REDIS_PREFIX: process.env.REDIS_PREFIX,
      // As shipped unless set: the load clients spread their sockets over loopback addresses.
      MAX_SOCKETS_PER_ADDRESS: process.env.MAX_SOCKETS_PER_ADDRESS,
    },
    ROOT,
  );
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const server = await buildServer(config, {
    database,
    logStream: pino.destination(2),
    loginRatePerMinute: UNLIMITED,
    // The login driver is one address: only the global bound of the verification queue applies.
    loginVerification: { maxPendingPerVisitor: UNLIMITED },
    keyLoginFailuresPerWindow: UNLIMITED,
    roomCreationsPerTenMinutes: UNLIMITED,
    anonymousRoomCreationsPerTenMinutes: UNLIMITED,
    announce: () => undefined,
  });

  const extraRooms = Number(process.env.BENCH_ROOMS ?? '0');
  const rooms = [(await server.rooms.defaultRoom()).id];
  for (let i = 0; i < extraRooms; i += 1) {
    const room = await server.rooms.createRoom({
      name: `bench-${i + 1}`,
      isPrivate: false,
      securityLevel: 'public',
      passwordHash: null,
      selfDestructTimer: null,
    });
    rooms.push(room.id);
  }

  const url = await server.app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({ url, wsPath: '/chat-ws', rooms })}\n`);

  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    const force = setTimeout(() => process.exit(1), 5000);
    force.unref();
    server.app
      .close()
      .then(() => database.close())
      .then(() => process.exit(0))
      .catch(() => process.exit(1));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  collectOnSignal();
  recordGcPauses();
  process.stdin.on('end', stop);
  process.stdin.resume();
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench server failed: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
