/**
 * `npm start`: builds the client when it is missing or older than its sources, then runs the
 * server in this process (TypeScript through tsx), so SIGTERM/SIGINT reach server/main.ts.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const builtIndex = path.join(root, 'dist/client/index.html');

function newestMtime(target) {
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target))
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

const sources = ['client', 'shared', 'vite.config.ts', 'package-lock.json'].map((p) =>
  path.join(root, p),
);
const needsBuild =
  !existsSync(builtIndex) ||
  Math.max(...sources.filter(existsSync).map(newestMtime)) > statSync(builtIndex).mtimeMs;

if (needsBuild) {
  process.stdout.write('Building the client...\n');
  const { build } = await import('vite');
  await build({ configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
}

process.chdir(root);
const { register } = await import('tsx/esm/api');
register();
await import('../server/main.ts');
