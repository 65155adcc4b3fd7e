/**
 * Entry point: reads the configuration, builds the server, listens, and drains on SIGTERM/SIGINT.
 */
import { loadConfig } from './config.js';
import { buildServer } from './app.js';
import { readInstanceLock, writeInstanceLock } from './db/instance-lock.js';
import { startupBanner } from './lib/log-output.js';

async function main(): Promise<void> {
  const config = loadConfig(process.env, process.cwd());
  // The embedded database is a folder only one process may open.
  const holder = config.databaseUrl ? null : readInstanceLock(config.dataDir);
  if (holder) {
    throw new Error(
      `Another SecureChannel server (pid ${holder.pid}, ${holder.url}) is using ${config.dataDir}. ` +
        'Stop it, choose another DATA_DIR, or use DATABASE_URL to share a PostgreSQL server.',
    );
  }
  const server = await buildServer(config);
  const { app } = server;

  let closing = false;
  let removeLock: () => void = () => undefined;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    app
      .close()
      .then(() => {
        removeLock();
        process.exit(0);
      })
      .catch(() => process.exit(1));
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  const address = await app.listen({ port: config.port, host: config.host });
  if (server.database.kind === 'pglite') removeLock = writeInstanceLock(config.dataDir, address);
  app.log.info(
    { address, database: server.database.kind, messageTtlSeconds: config.messageTtlSeconds },
    'SecureChannel listening',
  );
  // A person at the terminal reads where to go and how the first admin key is made.
  if (process.stdout.isTTY) {
    process.stdout.write(
      startupBanner({
        address,
        dataDir: config.dataDir,
        isPasswordConfigured: config.adminPassword !== null,
      }),
    );
  }
}

main().catch((error: unknown) => {
  // Configuration errors list variable names only, never values.
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
