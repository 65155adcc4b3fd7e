/**
 * The embedded database is a folder that only one process may open. While the server runs on it,
 * it keeps `DATA_DIR/server.json` with its pid and URL, so tools such as `npm run keygen` know to
 * go through the server instead of opening the folder themselves.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const LockSchema = z.object({ pid: z.number().int().positive(), url: z.string().url() });
export type InstanceLock = z.infer<typeof LockSchema>;

export function lockPath(dataDir: string): string {
  return path.join(dataDir, 'server.json');
}

export function writeInstanceLock(dataDir: string, url: string): () => void {
  const file = lockPath(dataDir);
  writeFileSync(file, JSON.stringify({ pid: process.pid, url }), { mode: 0o600 });
  return () => rmSync(file, { force: true });
}

/** The running server holding `dataDir`, or null when none is (a stale file is ignored). */
export function readInstanceLock(dataDir: string): InstanceLock | null {
  let parsed: InstanceLock;
  try {
    parsed = LockSchema.parse(JSON.parse(readFileSync(lockPath(dataDir), 'utf8')));
  } catch {
    return null;
  }
  // Our own pid is a leftover of an earlier run (a restarted container gets the same pid).
  if (parsed.pid === process.pid) return null;
  try {
    process.kill(parsed.pid, 0);
    return parsed;
  } catch (error) {
    // EPERM: the process exists but belongs to another user, so it still holds the folder.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? parsed : null;
  }
}
