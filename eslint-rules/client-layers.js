// The client's layers as a lint rule (issue 34, docs/architecture.md "Client layers"): app/ on
// top, features/* in the middle, ui/ and lib/ at the bottom; imports run one way, down. For every
// import of a file under client/ (static, `export … from`, `import type`, dynamic `import()`,
// `new URL('…', import.meta.url)`) the rule reports:
//   - a side door: a file of another feature other than its index.ts (app/ may name a feature's
//     page in a dynamic import(), so that the page keeps its own chunk);
//   - an upward import: ui/ or lib/ importing features/ or app/, a feature importing app/;
//   - a circle: an import whose target leads back to this file, type-only imports included (the
//     rest of the graph is read from disk once per lint run).
// The same judgement counts the whole graph in scripts/client-import-graph.mjs, held at zero by
// tests/unit/client/import-graph.test.ts.
import path from 'node:path';
import {
  classify,
  findPath,
  judgeEdge,
  readClientEdges,
  resolveSpecifier,
} from '../scripts/client-import-graph.mjs';

const GRAPH_TTL_MS = 5000;
let cached = null;

function diskEdges(root) {
  const now = Date.now();
  if (!cached || cached.root !== root || now - cached.at > GRAPH_TTL_MS) {
    cached = { root, at: now, edges: readClientEdges(root) };
  }
  return cached.edges;
}

const MESSAGES = {
  sideDoor:
    '{{target}} is inside feature "{{feature}}": import its front door ({{index}}) instead, or move what is shared down to client/ui or client/lib.',
  upward:
    '{{from}} is below {{target}}: imports run down only (app → features → ui/lib). Move the shared piece down, or let the app compose the two.',
  circle: 'This import closes a circle: {{trail}}.',
};

const boundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'client/ layers: front doors, imports one way down, no circles' },
    schema: [
      { type: 'object', properties: { root: { type: 'string' } }, additionalProperties: false },
    ],
    messages: MESSAGES,
  },
  create(context) {
    const root = context.options[0]?.root ?? context.cwd;
    const file = path.resolve(context.cwd, context.filename);
    const from = classify(file, root);
    if (from.layer === 'outside') return {};
    const mine = [];

    const check = (node, specifier, dynamic) => {
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      // A file that does not exist (yet) is judged by where it would be.
      const target =
        resolveSpecifier(file, specifier) ??
        path.resolve(path.dirname(file), specifier.replace(/\?.*$/, '').replace(/\.js$/, '.ts'));
      const to = classify(target, root);
      if (to.layer === 'outside') return;
      mine.push({ node, target });
      const verdict = judgeEdge(from, to, dynamic);
      if (verdict === 'side-door') {
        const index = path.relative(
          path.dirname(file),
          path.join(root, 'client/features', to.feature, 'index.js'),
        );
        context.report({
          node,
          messageId: 'sideDoor',
          data: {
            target: to.rel,
            feature: to.feature,
            index: index.startsWith('.') ? index : `./${index}`,
          },
        });
      } else if (verdict === 'upward') {
        context.report({ node, messageId: 'upward', data: { from: from.rel, target: to.rel } });
      }
    };

    return {
      ImportDeclaration: (node) => check(node.source, node.source.value, false),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value, false),
      ExportAllDeclaration: (node) => check(node.source, node.source.value, false),
      ImportExpression: (node) =>
        node.source.type === 'Literal' && check(node.source, node.source.value, true),
      NewExpression(node) {
        const [url, base] = node.arguments;
        if (
          node.callee.type === 'Identifier' &&
          node.callee.name === 'URL' &&
          url?.type === 'Literal' &&
          base?.type === 'MemberExpression' &&
          base.object.type === 'MetaProperty'
        ) {
          check(url, url.value, true);
        }
      },
      'Program:exit'() {
        if (mine.length === 0) return;
        const edges = diskEdges(root);
        const reported = new Set();
        for (const { node, target } of mine) {
          if (reported.has(target)) continue;
          const trail = target === file ? [file] : findPath(edges, target, file);
          if (!trail) continue;
          reported.add(target);
          const names = [file, ...trail].map((f) => classify(f, root).rel);
          context.report({ node, messageId: 'circle', data: { trail: names.join(' → ') } });
        }
      },
    };
  },
};

export const clientLayers = {
  meta: { name: 'client-layers' },
  rules: { boundaries },
};
