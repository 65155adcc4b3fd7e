/**
 * The client's first-load script per route stays within its budget (issue 22, target 5). Reads the
 * production build (`npm test` runs `npm run build` first) and the checked-in budgets in
 * client/bundle-budget.json. A route's first load is the entry with its static imports plus the
 * route's page chunk with its static imports, gzip; any other chunk loaded on demand (a page or an
 * action, e.g. key login or a feature added later) is held, together with the entry, to the
 * generic `lazyChunkBudgetKb`. Raising a budget is a decision to write down in docs/benchmarks.md.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BundleBudgetSchema,
  FirstLoadSizer,
  lazyChunks,
  readBuildManifest,
} from '../../support/bundle-first-load.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const CLIENT_DIST = path.join(ROOT, 'dist/client');
const KB = 1024;

const budget = BundleBudgetSchema.parse(
  JSON.parse(readFileSync(path.join(ROOT, 'client/bundle-budget.json'), 'utf8')),
);

describe('client bundle budget', () => {
  it('has a production build with a manifest to measure (npm run build)', () => {
    expect(existsSync(path.join(CLIENT_DIST, '.vite/manifest.json'))).toBe(true);
  });

  const manifest = existsSync(path.join(CLIENT_DIST, '.vite/manifest.json'))
    ? readBuildManifest(CLIENT_DIST)
    : null;
  const sizer = manifest ? new FirstLoadSizer(CLIENT_DIST, manifest) : null;

  it.each(Object.entries(budget.routes))(
    'route %s loads its page on demand, within its first-load budget',
    (_route, { page, budgetKb }) => {
      if (!manifest || !sizer) throw new Error('no build manifest: run npm run build');
      // A page imported statically would sit in the entry and weigh on every route.
      expect(manifest[page]?.isDynamicEntry, `${page} is a lazily loaded chunk`).toBe(true);
      const { bytes } = sizer.firstLoadBytes(budget.entry, page);
      expect(bytes / KB).toBeLessThanOrEqual(budgetKb);
    },
  );

  it('keeps every chunk loaded on demand, with the entry, within the generic budget', () => {
    if (!manifest || !sizer) throw new Error('no build manifest: run npm run build');
    const over = lazyChunks(manifest)
      .map((chunk) => ({ chunk, kb: sizer.firstLoadBytes(budget.entry, chunk).bytes / KB }))
      .filter(({ kb }) => kb > budget.lazyChunkBudgetKb)
      .map(({ chunk, kb }) => `${chunk}: ${kb.toFixed(1)} KB`);
    expect(over).toEqual([]);
  });
});
