/**
 * The client's layers hold (issue 34, docs/architecture.md "Client layers"): counted from the
 * source by scripts/client-import-graph.mjs, every import of client/**\/*.ts(x) — static,
 * `export … from`, `import type`, dynamic `import()` and worker URLs — goes one way down
 * (app/ → features/* → ui/, lib/), reaches another feature only through its index.ts, and no
 * file leads back to itself. The ESLint rule (eslint-rules/client-layers.js) reports the same
 * imports file by file; tests/unit/lint/client-boundaries.test.ts plants one of each.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  classify,
  clientImportGraph,
  judgeEdge,
  specifiersOf,
} from '../../../scripts/client-import-graph.mjs';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const MAX_FEATURE_PAIRS = 25;

describe('client import graph', () => {
  const graph = clientImportGraph(ROOT);

  it('reads the whole client', () => {
    expect(graph.files).toBeGreaterThan(250);
  });

  it('has no side-door imports: features meet only through index.ts', () => {
    expect(graph.sideDoors).toEqual([]);
  });

  it('has no upward imports: ui/ and lib/ import no feature or app/, features import no app/', () => {
    expect(graph.upward).toEqual([]);
  });

  it('has no circles, type-only imports included', () => {
    expect(graph.cycles).toEqual([]);
  });

  it(`keeps feature→feature pairs at ${MAX_FEATURE_PAIRS} or fewer`, () => {
    expect(graph.featurePairs.length, graph.featurePairs.join('\n')).toBeLessThanOrEqual(
      MAX_FEATURE_PAIRS,
    );
  });
});

describe('client import graph: the judgement', () => {
  const at = (rel: string) => classify(path.join(ROOT, 'client', rel), ROOT);

  it('reads every kind of import, type-only and dynamic ones included', () => {
    const found = specifiersOf(
      [
        "import { a } from './a.js';",
        "import type { B } from './b.js';",
        "export { c } from './c.js';",
        "const d = () => import('./d.js');",
        "new Worker(new URL('./e.ts', import.meta.url));",
      ].join('\n'),
    );
    expect(found).toEqual([
      { specifier: './a.js', dynamic: false },
      { specifier: './b.js', dynamic: false },
      { specifier: './c.js', dynamic: false },
      { specifier: './d.js', dynamic: true },
      { specifier: './e.ts', dynamic: true },
    ]);
  });

  it('calls a file of another feature a side door, its index.ts the front door', () => {
    const admin = at('features/admin/AdminPanel.tsx');
    expect(judgeEdge(admin, at('features/rooms/ChatRoomPage.tsx'), false)).toBe('side-door');
    expect(judgeEdge(admin, at('features/tor/index.ts'), false)).toBeNull();
    expect(judgeEdge(admin, at('features/admin/AdminTabs.tsx'), false)).toBeNull();
  });

  it('lets app/ load a page lazily, but not import a feature file statically', () => {
    const app = at('app/App.tsx');
    expect(judgeEdge(app, at('features/rooms/ChatRoomPage.tsx'), true)).toBeNull();
    expect(judgeEdge(app, at('features/rooms/ChatRoomPage.tsx'), false)).toBe('side-door');
  });

  it('calls an import from a lower layer into a higher one upward', () => {
    expect(judgeEdge(at('lib/http.ts'), at('features/auth/index.ts'), false)).toBe('upward');
    expect(judgeEdge(at('ui/Tooltip.tsx'), at('app/App.tsx'), true)).toBe('upward');
    expect(judgeEdge(at('features/auth/AuthProvider.tsx'), at('app/App.tsx'), false)).toBe(
      'upward',
    );
    expect(judgeEdge(at('features/auth/AuthProvider.tsx'), at('lib/http.ts'), false)).toBeNull();
  });
});
