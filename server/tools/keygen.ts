/**
 * `npm run keygen -- --username NAME [--level admin|user|observer|guest] [--days N] --out FILE.sck`
 *
 * Makes a key file and registers its public part with the configured database:
 * - DATABASE_URL set: directly in PostgreSQL, server running or not;
 * - embedded database, no server running: directly in DATA_DIR;
 * - embedded database held by a running server: through that server's API, authenticated with
 *   ADMIN_PASSWORD (the folder cannot be opened twice), or a plain message saying what to do.
 * The file is written only once the key is registered; it holds the private keys, mode 0600.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_KEY_VALIDITY_DAYS } from '../../shared/constants.js';
import { createKeyFile } from '../../shared/crypto/key-file.js';
import {
  KeyPermissionLevelSchema,
  KeyUsernameSchema,
  publicPart,
  serializeKeyFile,
  type KeyFile,
} from '../../shared/crypto/key-file-schema.js';
import { loadConfig, type Config } from '../config.js';
import { openDatabase } from '../db/connect.js';
import { readInstanceLock } from '../db/instance-lock.js';
import { createAuthStore, registerPublicKey } from '../features/auth/index.js';

export const KeygenArgsSchema = z.strictObject({
  username: KeyUsernameSchema,
  level: KeyPermissionLevelSchema.default('user'),
  days: z.coerce.number().int().min(0).max(36_500).default(DEFAULT_KEY_VALIDITY_DAYS),
  out: z
    .string()
    .min(1)
    .refine((value) => /\.(sck|bin)$/i.test(value), 'must end in .sck or .bin'),
  force: z.boolean().default(false),
});
export type KeygenArgs = z.infer<typeof KeygenArgsSchema>;

export const KEYGEN_USAGE =
  'Usage: npm run keygen -- --username NAME [--level admin|user|observer|guest] [--days N] --out FILE.sck [--force]\n' +
  '  --days 0 makes a key that never expires (default 365).';

/** Turns `--name value` pairs (and the `--force` flag) into an object for the schema. */
export function parseArgv(argv: readonly string[]): Record<string, string | boolean> {
  const out: Record<string, string | boolean> = {};
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) throw new Error(`Unexpected argument: ${arg}`);
    const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
    if (name === 'force') {
      out.force = true;
      continue;
    }
    const value = inline ?? argv[i + 1];
    if (value === undefined || (inline === undefined && value.startsWith('--')))
      throw new Error(`--${name} needs a value`);
    if (inline === undefined) i += 1;
    out[name] = value;
  }
  return out;
}

export class KeygenError extends Error {
  override readonly name = 'KeygenError';
}

async function registerDirectly(config: Config, keyFile: KeyFile): Promise<string> {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await registerPublicKey(createAuthStore(database.db), publicPart(keyFile));
  } finally {
    await database.close();
  }
  return config.databaseUrl
    ? 'PostgreSQL (DATABASE_URL)'
    : `the embedded database in ${config.dataDir}`;
}

async function registerThroughServer(
  url: string,
  password: string,
  keyFile: KeyFile,
): Promise<void> {
  const auth = await fetch(new URL('/api/admin/authenticate', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password }),
  });
  if (!auth.ok) {
    throw new KeygenError(
      `The running server refused ADMIN_PASSWORD (${auth.status}): ${await auth.text()}`,
    );
  }
  const { sessionToken } = z.object({ sessionToken: z.string() }).parse(await auth.json());
  const register = await fetch(new URL('/api/keys/register', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${sessionToken}` },
    body: JSON.stringify(publicPart(keyFile)),
  });
  if (!register.ok)
    throw new KeygenError(`Registration failed (${register.status}): ${await register.text()}`);
}

/** Runs keygen; returns the lines to print. Throws KeygenError with a message for the operator. */
export async function runKeygen(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  cwd: string,
): Promise<string[]> {
  let raw: Record<string, string | boolean>;
  try {
    raw = parseArgv(argv);
  } catch (error) {
    throw new KeygenError(`${(error as Error).message}\n${KEYGEN_USAGE}`);
  }
  const parsed = KeygenArgsSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `--${issue.path.join('.')}: ${issue.message}`,
    );
    throw new KeygenError(`${problems.join('\n')}\n${KEYGEN_USAGE}`);
  }
  const args = parsed.data;
  const outFile = path.resolve(cwd, args.out);
  if (existsSync(outFile) && !args.force) {
    throw new KeygenError(`${outFile} exists; choose another --out or add --force.`);
  }
  const config = loadConfig(env, cwd);
  const keyFile = await createKeyFile({
    username: args.username,
    level: args.level,
    validityDays: args.days,
  });

  let where: string;
  const running = config.databaseUrl ? null : readInstanceLock(config.dataDir);
  if (running) {
    if (!config.adminPassword) {
      throw new KeygenError(
        `A SecureChannel server (pid ${running.pid}, ${running.url}) holds the embedded database in ${config.dataDir}.\n` +
          'Run keygen again with ADMIN_PASSWORD set to the admin password, so the key is registered through\n' +
          'that server, or stop the server first. No key file was written.',
      );
    }
    await registerThroughServer(running.url, config.adminPassword, keyFile);
    where = `the running server at ${running.url}`;
  } else {
    where = await registerDirectly(config, keyFile);
  }

  writeFileSync(outFile, serializeKeyFile(keyFile), { mode: 0o600 });
  return [
    `Key file written: ${outFile} (keep it private: it holds the private keys)`,
    `  username: ${keyFile.username}  level: ${keyFile.permissions.level}  keyId: ${keyFile.keyId}`,
    `  expires: ${keyFile.expires ?? 'never'}  fingerprint: ${keyFile.fingerprint}`,
    `  registered with ${where}`,
  ];
}
