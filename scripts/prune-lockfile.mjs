/**
 * `npm run lockfile:prune`, after any `npm install`: drops optional dependencies that the lockfile
 * lists but does not contain. The package registry this project builds against lacks some
 * platform-specific optional packages (for example Tailwind's native engine for other operating
 * systems); `npm install` skips them, yet keeps naming them, and `npm ci` then refuses the
 * lockfile. Removing the dangling names makes `npm ci` work; nothing installable is lost.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const pruned = [];
for (const [path, entry] of Object.entries(lock.packages ?? {})) {
  if (!entry.optionalDependencies) continue;
  const kept = Object.entries(entry.optionalDependencies).filter(([name]) => {
    const isPresent = Boolean(
      lock.packages[`${path}/node_modules/${name}`] || lock.packages[`node_modules/${name}`],
    );
    if (!isPresent) pruned.push(`${path || '(root)'} -> ${name}`);
    return isPresent;
  });
  entry.optionalDependencies = kept.length > 0 ? Object.fromEntries(kept) : undefined;
}
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
process.stdout.write(pruned.length ? `Pruned:\n  ${pruned.join('\n  ')}\n` : 'Nothing to prune.\n');
