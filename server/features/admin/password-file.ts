/**
 * Where a generated admin password goes (issue 15): a file under DATA_DIR that only the server's
 * user can read, never the log (journald and `docker logs` keep logs for anyone with access to
 * them). Its path is logged; the password itself is printed only to an interactive terminal.
 */
import { chmod, mkdir, open } from 'node:fs/promises';
import path from 'node:path';

/** The file's name under DATA_DIR. */
export const ADMIN_PASSWORD_FILE = 'admin-password';

/** Writes `password` to DATA_DIR/admin-password with mode 0600; returns the file's path. */
export async function writeAdminPasswordFile(dataDir: string, password: string): Promise<string> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, ADMIN_PASSWORD_FILE);
  // Mode 0600 from creation on, so the password is never readable by others, not even briefly;
  // chmod covers a file left by an earlier start with a wider mode.
  const handle = await open(file, 'w', 0o600);
  try {
    await handle.chmod(0o600);
    await handle.writeFile(`${password}\n`, 'utf8');
  } finally {
    await handle.close();
  }
  await chmod(file, 0o600);
  return file;
}
