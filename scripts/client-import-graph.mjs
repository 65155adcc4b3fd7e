// The client's import graph, counted from the source (issue 34). Every client/**/*.ts(x) file is
// read; its static imports and re-exports, `import type`, dynamic `import()` and worker
// `new URL('…', import.meta.url)` become edges to the files they resolve to. The layers:
//
//   app      client/app/**, client/main.tsx      routes, providers, composition (top)
//   feature  client/features/<name>/**           one folder per feature (middle)
//   base     client/ui/**, client/lib/**         shared widgets, session, socket, storage (floor)
//
// Counted: side-door imports (a feature, or ui/lib, importing a file of another feature other than
// its index.ts; app/ may load a feature's page lazily, see isAllowedAppEntry), upward imports
// (base importing a feature or app/, a feature importing app/), file-level circles (type-only
// imports included) and feature→feature pairs. tests/unit/client/import-graph.test.ts holds the
// counts at 0/0/0/≤25; `node scripts/client-import-graph.mjs` prints them.
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function listSources(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...listSources(full));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** Resolves a relative specifier the way Vite and TypeScript's Bundler resolution do. */
export function resolveSpecifier(fromFile, specifier) {
  if (!specifier.startsWith('.')) return null;
  const bare = specifier.replace(/\?.*$/, '');
  const base = path.resolve(path.dirname(fromFile), bare);
  const candidates = [
    base,
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.js$/, '.tsx'),
    `${base}.ts`,
    `${base}.tsx`,
    path.join(base, 'index.ts'),
    path.join(base, 'index.tsx'),
  ];
  for (const c of candidates) if (existsSync(c) && statSync(c).isFile()) return c;
  return null;
}

/** Every module specifier a source text names, with whether it is a dynamic import. */
export function specifiersOf(text) {
  const info = ts.preProcessFile(text, true, true);
  const found = info.importedFiles.map((f) => ({
    specifier: f.fileName,
    dynamic: /import\s*\(\s*$/.test(text.slice(Math.max(0, f.pos - 30), f.pos)),
  }));
  for (const m of text.matchAll(/new\s+URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url/g)) {
    found.push({ specifier: m[1], dynamic: true });
  }
  return found;
}

/** Where a file sits: { layer: 'app'|'feature'|'ui'|'lib'|'other', feature?, isIndex? }. */
export function classify(file, root = ROOT) {
  const rel = path.relative(path.join(root, 'client'), file).split(path.sep).join('/');
  if (rel.startsWith('..')) return { layer: 'outside', rel };
  if (rel === 'main.tsx' || rel.startsWith('app/')) return { layer: 'app', rel };
  if (rel.startsWith('ui/')) return { layer: 'ui', rel };
  if (rel.startsWith('lib/')) return { layer: 'lib', rel };
  const m = /^features\/([^/]+)\/(.+)$/.exec(rel);
  if (m) return { layer: 'feature', feature: m[1], isIndex: /^index\.tsx?$/.test(m[2]), rel };
  return { layer: 'other', rel };
}

const RANK = { app: 3, feature: 2, ui: 1, lib: 1 };

/**
 * What one import edge breaks, if anything: 'side-door', 'upward' or null. App may name a
 * feature's files directly only through dynamic import() (a lazily loaded page keeps its own
 * chunk); statically it goes through the feature's index.ts like everyone else.
 */
export function judgeEdge(from, to, dynamic) {
  if (from.layer === 'outside' || to.layer === 'outside') return null;
  if (RANK[to.layer] > RANK[from.layer]) return 'upward';
  if (to.layer === 'feature' && !to.isIndex) {
    if (from.layer === 'feature' && from.feature === to.feature) return null;
    if (from.layer === 'app' && dynamic) return null;
    return 'side-door';
  }
  return null;
}

function findCycles(nodes, edges) {
  // Tarjan's strongly connected components; every component of more than one file (or a file
  // importing itself) is a circle.
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const sccs = [];
  const strong = (v) => {
    idx.set(v, index);
    low.set(v, index);
    index += 1;
    stack.push(v);
    on.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const comp = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (edges.get(v) ?? new Set()).has(v)) sccs.push(comp);
    }
  };
  for (const n of nodes) if (!idx.has(n)) strong(n);
  return sccs;
}

/** Every client source file and the client files it imports: Map<file, Set<file>>. */
export function readClientEdges(root = ROOT) {
  const clientDir = path.join(root, 'client');
  const edges = new Map();
  for (const file of listSources(clientDir)) {
    const targets = new Map();
    for (const { specifier, dynamic } of specifiersOf(readFileSync(file, 'utf8'))) {
      const target = resolveSpecifier(file, specifier);
      if (!target || !target.startsWith(clientDir + path.sep)) continue;
      // One edge per target; static wins over dynamic (a static import is what a rule judges).
      targets.set(target, (targets.get(target) ?? true) && dynamic);
    }
    edges.set(file, targets);
  }
  return edges;
}

/** A path of imports from `from` to `to` in `edges` (file names), or null. */
export function findPath(edges, from, to) {
  const previous = new Map([[from, null]]);
  const queue = [from];
  while (queue.length > 0) {
    const current = queue.shift();
    if (current === to) {
      const trail = [];
      for (let at = to; at !== null; at = previous.get(at)) trail.unshift(at);
      return trail;
    }
    for (const next of (edges.get(current) ?? new Map()).keys()) {
      if (!previous.has(next)) {
        previous.set(next, current);
        queue.push(next);
      }
    }
  }
  return null;
}

export function clientImportGraph(root = ROOT) {
  const edges = readClientEdges(root);
  const sideDoors = [];
  const upward = [];
  const pairs = new Set();
  for (const [file, targets] of edges) {
    const from = classify(file, root);
    for (const [target, dynamic] of targets) {
      const to = classify(target, root);
      const verdict = judgeEdge(from, to, dynamic);
      const edge = `${from.rel} -> ${to.rel}`;
      if (verdict === 'side-door') sideDoors.push(edge);
      if (verdict === 'upward') upward.push(edge);
      if (from.layer === 'feature' && to.layer === 'feature' && from.feature !== to.feature) {
        pairs.add(`${from.feature} -> ${to.feature}`);
      }
    }
  }
  const plain = new Map([...edges].map(([file, targets]) => [file, new Set(targets.keys())]));
  const cycles = findCycles([...edges.keys()], plain).map((c) =>
    c.map((f) => classify(f, root).rel).sort(),
  );
  return {
    files: edges.size,
    sideDoors,
    upward,
    cycles,
    featurePairs: [...pairs].sort(),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const g = clientImportGraph();
  const verbose = process.argv.includes('--list');
  const lines = [`files: ${g.files}`, `side-door imports: ${g.sideDoors.length}`];
  if (verbose) lines.push(...g.sideDoors.map((e) => `  ${e}`));
  lines.push(`upward imports: ${g.upward.length}`);
  if (verbose) lines.push(...g.upward.map((e) => `  ${e}`));
  lines.push(`circles: ${g.cycles.length}`, ...g.cycles.map((c) => `  ${c.join(' <-> ')}`));
  lines.push(`feature->feature pairs: ${g.featurePairs.length}`);
  if (verbose) lines.push(...g.featurePairs.map((p) => `  ${p}`));
  process.stdout.write(`${lines.join('\n')}\n`);
}
