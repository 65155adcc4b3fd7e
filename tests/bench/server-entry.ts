/**
 * The SecureChannel server as the bench runs it: the real buildServer with an in-memory PGlite,
 * quiet logs (to stderr) and login/room-creation limits raised so that the load generator, which
 * is one machine, is not mistaken for an attacker. Everything else (hub frame limits, global
 * per-address HTTP limit, validation, presence, storage) is the product as shipped.
 *
 * Env: ADMIN_PASSWORD, MESSAGE_TTL_SECONDS, LOG_LEVEL (default warn), BENCH_ROOMS (extra public
 * rooms to create before listening). Prints one JSON line on stdout:
 * `{"url":"http://127.0.0.1:<port>","wsPath":"/chat-ws","rooms":[<room ids>]}`.
 * Stops on SIGTERM, SIGINT or when its stdin closes (the bench went away).
 */
import path from 'node:path';
import pino from 'pino';
import { buildServer } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { openDatabase } from '../../server/db/connect.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const UNLIMITED = 1_000_000_000;

async function main(): Promise<void> {
  const config = loadConfig(
    {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: '',
      ADMIN_PASSWORD: process.env.ADMIN_PASSWORD,
      MESSAGE_TTL_SECONDS: process.env.MESSAGE_TTL_SECONDS,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    },
    ROOT,
  );
  const database = await openDatabase({ databaseUrl: null, dataDir: '', inMemory: true });
  const server = await buildServer(config, {
    database,
    logStream: pino.destination(2),
    loginRatePerMinute: UNLIMITED,
    keyLoginRatePerMinute: UNLIMITED,
    roomCreationsPerTenMinutes: UNLIMITED,
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
  process.stdin.on('end', stop);
  process.stdin.resume();
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench server failed: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
