/**
 * First-load script of each client route, from Vite's build manifest (dist/client/.vite/manifest.json,
 * `build.manifest: true`): the entry chunk and everything it imports statically (the
 * `modulepreload` links of index.html), plus the route's lazily loaded page chunk and its static
 * imports, since the page cannot paint before its chunk has run. Sizes are gzip (level 9) of
 * each JavaScript file, counted once per route however many chunks import it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { z } from 'zod';

const ManifestChunkSchema = z.object({
  file: z.string(),
  isEntry: z.boolean().optional(),
  isDynamicEntry: z.boolean().optional(),
  imports: z.array(z.string()).optional(),
  dynamicImports: z.array(z.string()).optional(),
});
const ManifestSchema = z.record(z.string(), ManifestChunkSchema);
export type BuildManifest = z.infer<typeof ManifestSchema>;

/** Budgets in KB (1024 bytes) of gzip script; `page` is a manifest key (a path under client/). */
export const BundleBudgetSchema = z.strictObject({
  entry: z.string(),
  routes: z.record(
    z.string(),
    z.strictObject({ page: z.string(), budgetKb: z.number().positive() }),
  ),
  lazyChunkBudgetKb: z.number().positive(),
});
export type BundleBudget = z.infer<typeof BundleBudgetSchema>;

export function readBuildManifest(clientDist: string): BuildManifest {
  return ManifestSchema.parse(
    JSON.parse(readFileSync(path.join(clientDist, '.vite/manifest.json'), 'utf8')),
  );
}

/** Manifest keys of a chunk and of everything it imports statically, transitively. */
export function staticClosure(manifest: BuildManifest, key: string): Set<string> {
  const seen = new Set<string>();
  const visit = (current: string) => {
    if (seen.has(current)) return;
    const chunk = manifest[current];
    if (!chunk) throw new Error(`${current} is not in the build manifest`);
    seen.add(current);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(key);
  return seen;
}

/** Every chunk loaded on demand (dynamic import) anywhere in the build. */
export function lazyChunks(manifest: BuildManifest): string[] {
  return Object.keys(manifest).filter((key) => manifest[key]!.isDynamicEntry === true);
}

export class FirstLoadSizer {
  private readonly gzipBytes = new Map<string, number>();

  constructor(
    private readonly clientDist: string,
    private readonly manifest: BuildManifest,
  ) {}

  /** Gzip bytes of the script a page needs before it paints: entry ∪ page, static imports. */
  firstLoadBytes(entry: string, page: string | null): { bytes: number; files: string[] } {
    const keys = staticClosure(this.manifest, entry);
    if (page) for (const key of staticClosure(this.manifest, page)) keys.add(key);
    const files = [...keys].map((key) => this.manifest[key]!.file).filter((f) => f.endsWith('.js'));
    return { bytes: files.reduce((sum, file) => sum + this.fileBytes(file), 0), files };
  }

  private fileBytes(file: string): number {
    let bytes = this.gzipBytes.get(file);
    if (bytes === undefined) {
      bytes = gzipSync(readFileSync(path.join(this.clientDist, file)), { level: 9 }).length;
      this.gzipBytes.set(file, bytes);
    }
    return bytes;
  }
}
