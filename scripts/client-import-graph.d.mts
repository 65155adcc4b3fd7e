// Types of scripts/client-import-graph.mjs, for the tests that import it.
export interface Placement {
  layer: 'app' | 'feature' | 'ui' | 'lib' | 'other' | 'outside';
  feature?: string;
  isIndex?: boolean;
  rel: string;
}

export interface ClientImportGraph {
  files: number;
  /** `from -> to` (paths under client/) of every import through another feature's side door. */
  sideDoors: string[];
  /** `from -> to` of every import from a lower layer into a higher one. */
  upward: string[];
  /** The files of each circle (strongly connected component), type-only imports included. */
  cycles: string[][];
  /** `a -> b` for every pair of features where a imports b. */
  featurePairs: string[];
}

export function clientImportGraph(root?: string): ClientImportGraph;
export function classify(file: string, root?: string): Placement;
export function judgeEdge(
  from: Placement,
  to: Placement,
  dynamic: boolean,
): 'side-door' | 'upward' | null;
export function resolveSpecifier(fromFile: string, specifier: string): string | null;
export function specifiersOf(text: string): { specifier: string; dynamic: boolean }[];
export function readClientEdges(root?: string): Map<string, Map<string, boolean>>;
export function findPath(
  edges: Map<string, Map<string, boolean>>,
  from: string,
  to: string,
): string[] | null;
