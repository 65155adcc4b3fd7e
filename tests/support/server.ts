/**
 * Starts the real server on 127.0.0.1, port 0, against a fresh database, for integration tests.
 */
import path from 'node:path';
import { buildServer, type Server, type ServerDeps } from '../../server/app.js';
import { loadConfig, type Config } from '../../server/config.js';
import { freshDatabase, type Backend } from './database.js';
import { captureLogs, type LogCapture } from './logs.js';

export interface TestServer extends Server {
  baseUrl: string;
  wsUrl: (path?: string) => string;
  logs: LogCapture;
  stop(): Promise<void>;
}

export interface StartOptions {
  backend?: Backend;
  env?: Record<string, string>;
  deps?: Omit<ServerDeps, 'database' | 'logStream'>;
}

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The admin password every test server starts with. */
export const TEST_ADMIN_PASSWORD = 'test-admin-password-0123';

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig(
    { PORT: '0', LOG_LEVEL: 'info', DATA_DIR: '', ADMIN_PASSWORD: TEST_ADMIN_PASSWORD, ...env },
    ROOT,
  );
}

export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const db = await freshDatabase(options.backend ?? 'pglite');
  const logs = captureLogs();
  const config = testConfig(options.env);
  const server = await buildServer(config, {
    announce: () => undefined,
    ...options.deps,
    database: db.database,
    logStream: logs.stream,
  });
  const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const url = new URL(address);
  return {
    ...server,
    logs,
    baseUrl: address,
    wsUrl: (wsPath = '/chat-ws') => `ws://${url.host}${wsPath}`,
    stop: async () => {
      await server.app.close();
      await db.cleanup();
    },
  };
}
