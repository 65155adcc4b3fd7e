/**
 * `npm run keygen` as an operator runs it: against the embedded database with and without a
 * running server, and against PostgreSQL.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseKeyFileText } from '../../shared/crypto/key-file-schema.js';
import { openDatabase } from '../../server/db/connect.js';
import { createThrowawayPostgres } from '../support/database.js';
import { login } from '../support/keys.js';
import { runTs, startServerProcess, type ServerProcess } from '../support/processes.js';
import { HAS_POSTGRES } from '../support/services.js';

const folders: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-keygen-'));
  folders.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function readKey(file: string) {
  const parsed = parseKeyFileText(readFileSync(file, 'utf8'));
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.keyFile;
}

// Each case starts node processes (keygen, and a server on an embedded database folder): with other
// test files running beside it, the integration default of 30 s is too short.
describe('npm run keygen', { timeout: 120_000 }, () => {
  it('registers directly in the embedded database when no server runs, and the key logs in later', async () => {
    const dir = tempDir();
    const out = path.join(dir, 'alice.sck');
    const result = await runTs(
      'scripts/keygen.ts',
      ['--username', 'alice', '--level', 'admin', '--days', '0', '--out', out],
      {
        DATA_DIR: path.join(dir, 'data'),
      },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('registered with the embedded database');
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const key = readKey(out);
    expect(key).toMatchObject({
      username: 'alice',
      expires: null,
      permissions: {
        level: 'admin',
        capabilities: ['admin', 'chat', 'upload', 'moderate'],
        rooms: ['all'],
      },
    });

    let server: ServerProcess | null = null;
    try {
      server = await startServerProcess({
        DATA_DIR: path.join(dir, 'data'),
        ADMIN_PASSWORD: 'operator-password-1',
      });
      const loggedIn = await login(server.url, key);
      expect(loggedIn.status).toBe(200);
      expect(loggedIn.body).toMatchObject({
        user: { username: 'alice', permissions: { level: 'admin' } },
      });
    } finally {
      await server?.stop();
    }
  });

  it('goes through the running server that holds the embedded database, or says what to do', async () => {
    const dir = tempDir();
    const dataDir = path.join(dir, 'data');
    const server = await startServerProcess({
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: 'operator-password-2',
    });
    try {
      const refused = await runTs(
        'scripts/keygen.ts',
        ['--username', 'bob', '--out', path.join(dir, 'bob.sck')],
        { DATA_DIR: dataDir },
      );
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('holds the embedded database');
      expect(refused.stderr).toContain('ADMIN_PASSWORD');
      expect(existsSync(path.join(dir, 'bob.sck'))).toBe(false);

      const out = path.join(dir, 'carol.sck');
      const through = await runTs(
        'scripts/keygen.ts',
        ['--username', 'carol', '--days', '30', '--out', out],
        {
          DATA_DIR: dataDir,
          ADMIN_PASSWORD: 'operator-password-2',
        },
      );
      expect(through.code).toBe(0);
      expect(through.stdout).toContain(`registered with the running server at ${server.url}`);
      const key = readKey(out);
      expect(key.permissions.capabilities).toEqual(['chat', 'upload']);
      expect((await login(server.url, key)).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it.runIf(HAS_POSTGRES)('registers in PostgreSQL when DATABASE_URL is set', async () => {
    const dir = tempDir();
    const { url, drop } = await createThrowawayPostgres();
    try {
      const out = path.join(dir, 'dave.sck');
      const result = await runTs(
        'scripts/keygen.ts',
        ['--username', 'dave', '--level', 'observer', '--out', out],
        { DATABASE_URL: url },
      );
      expect(result.code).toBe(0);
      const key = readKey(out);
      const database = await openDatabase({ databaseUrl: url, dataDir: '' });
      try {
        const rows = await database.query<{ username: string; permission_level: string }>(
          'SELECT username, permission_level FROM keys WHERE key_id = $1',
          [key.keyId],
        );
        expect(rows).toEqual([{ username: 'dave', permission_level: 'observer' }]);
      } finally {
        await database.close();
      }
    } finally {
      await drop();
    }
  });

  it('explains its usage on bad arguments', async () => {
    const result = await runTs(
      'scripts/keygen.ts',
      ['--username', '', '--level', 'root', '--out', 'x.txt'],
      { DATA_DIR: tempDir() },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--level');
    expect(result.stderr).toContain('--out');
    expect(result.stderr).toContain('Usage: npm run keygen');
  });
});
