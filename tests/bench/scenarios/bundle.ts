/**
 * First-load script per client route (issue 22, target 5): builds the client (Vite, in a child
 * process) and reads its build manifest. A route's first load is the entry with its static
 * imports plus the route's page chunk with its static imports, gzip level 9
 * (tests/support/bundle-first-load.ts, the same measure as the budget test of `npm test`). Target:
 * the landing page and the public chat ≤ 150 KB; every route is also compared with its budget in
 * client/bundle-budget.json.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchContext } from '../context.js';
import { fixed, type ScenarioReport } from '../report.js';
import {
  BundleBudgetSchema,
  FirstLoadSizer,
  readBuildManifest,
} from '../../support/bundle-first-load.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const CLIENT_DIST = path.join(ROOT, 'dist/client');
const TARGET_KB = 150;
/** The routes issue 22 names: the landing page (what `/` shows first) and the public chat. */
const TARGET_ROUTES = ['/', '/chat/:secureId'];

export function runBundle(context: BenchContext): Promise<ScenarioReport> {
  context.progress('building the client');
  const vite = path.join(ROOT, 'node_modules/vite/bin/vite.js');
  const build = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (build.status !== 0) throw new Error('the client build failed');

  const budget = BundleBudgetSchema.parse(
    JSON.parse(readFileSync(path.join(ROOT, 'client/bundle-budget.json'), 'utf8')),
  );
  const sizer = new FirstLoadSizer(CLIENT_DIST, readBuildManifest(CLIENT_DIST));
  const entry = sizer.firstLoadBytes(budget.entry, null);
  const routes = Object.entries(budget.routes).map(([route, { page, budgetKb }]) => {
    const { bytes, files } = sizer.firstLoadBytes(budget.entry, page);
    return { route, page, budgetKb, kb: bytes / 1024, files: files.length };
  });
  return Promise.resolve({
    scenario: 'bundle',
    tables: [
      {
        title: `First-load script per route, gzip (entry alone: ${fixed(entry.bytes / 1024, 1)} KB in ${entry.files.length} files)`,
        columns: ['route', 'page chunk', 'files', 'KB gzip', 'budget KB'],
        textColumns: 2,
        rows: routes.map(({ route, page, files, kb, budgetKb }) => [
          route,
          page,
          String(files),
          fixed(kb, 1),
          String(budgetKb),
        ]),
      },
    ],
    checks: [
      ...TARGET_ROUTES.map((route) => {
        const measured = routes.find((entryRoute) => entryRoute.route === route);
        if (!measured) throw new Error(`client/bundle-budget.json has no route ${route}`);
        return {
          scenario: 'bundle' as const,
          name: `first-load script of ${route}`,
          target: `≤ ${TARGET_KB} KB gzip`,
          actual: `${fixed(measured.kb, 1)} KB`,
          pass: measured.kb <= TARGET_KB,
        };
      }),
      {
        scenario: 'bundle',
        name: 'routes within their budget (client/bundle-budget.json)',
        target: 'all',
        actual: `${routes.filter((route) => route.kb <= route.budgetKb).length} / ${routes.length}`,
        pass: routes.every((route) => route.kb <= route.budgetKb),
      },
    ],
    notes: [
      'first load = the entry and its static imports (the modulepreload links of index.html) plus the page chunk of the route and its static imports, each JavaScript file gzip level 9, counted once',
    ],
    data: { entryBytes: entry.bytes, routes },
  });
}
