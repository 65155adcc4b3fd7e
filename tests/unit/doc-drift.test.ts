/**
 * The simplest documentation drift (issue 21 item 15): every setting the server reads is in the
 * README, and every HTTP route it registers and every WebSocket frame type of the shared schemas
 * is in docs/protocol.md. The lists come from the code, so a route, frame or variable added later
 * (on any branch) is checked too:
 *
 * - settings: the keys of `ConfigSchema` (server/config.ts), plus any `process.env.NAME` read
 *   anywhere in server/;
 * - routes: every `.get/.post/.put/.patch/.delete(path, …)` registration in server/, with `path`
 *   a string literal, a constant of the same file, the loop variable over a constant array, or
 *   the parameter of a local helper whose calls pass literals; a registration this cannot resolve
 *   fails the test, so it cannot be skipped silently;
 * - frames: every `type: z.literal('…')` and `type: z.enum([…])` in shared/protocol/ws/*.ts.
 *
 * Reads source files only: nothing is started, nothing is written.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../server/config.js';
import { REALTIME_PATHS } from '../../server/realtime/routes.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (relative: string) => readFileSync(path.join(ROOT, relative), 'utf8');

/** Every .ts file under `folder` (relative to the root), tests and declaration files excluded. */
function sourceFiles(folder: string): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(ROOT, relative), { withFileTypes: true })) {
      const child = path.join(relative, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) found.push(child);
    }
  };
  walk(folder);
  return found.sort();
}

/** Line number of a character offset, for failure messages. */
const lineOf = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

/** Operating-system variables the server passes on to child processes; not settings of ours. */
const SYSTEM_VARIABLES = new Set(['PATH']);

export function environmentVariables(): string[] {
  const names = new Set(Object.keys(ConfigSchema.shape));
  for (const file of sourceFiles('server')) {
    const text = read(file);
    for (const match of text.matchAll(
      /process\.env(?:\.([A-Z][A-Z0-9_]*)|\[\s*'([A-Z][A-Z0-9_]*)'\s*\])/g,
    ))
      names.add(match[1] ?? match[2] ?? '');
  }
  return [...names].filter((name) => name !== '' && !SYSTEM_VARIABLES.has(name)).sort();
}

export interface Route {
  method: string;
  path: string;
  where: string;
}

const STRING = /^\s*(['"`])(\/[^'"`$]*)\1/;

/** The literal values `name` stands for in `text`, or null when they cannot be told. */
function resolveIdentifier(text: string, name: string): string[] | null {
  const constant = new RegExp(`const ${name}\\s*(?::[^=]+)?=\\s*(['"\`])(/[^'"\`$]*)\\1`).exec(
    text,
  );
  if (constant?.[2]) return [constant[2]];
  const loop = new RegExp(`for \\(const ${name} of ([A-Za-z_][A-Za-z0-9_]*)\\)`).exec(text);
  if (loop?.[1]) {
    const array = new RegExp(`const ${loop[1]}\\s*(?::[^=]+)?=\\s*\\[([^\\]]*)\\]`).exec(text);
    if (array?.[1]) return [...array[1].matchAll(/(['"`])(\/[^'"`$]*)\1/g)].map((m) => m[2] ?? '');
  }
  // A parameter of a local helper: `const helper = (name…) => app.post(name, …)`, called with
  // literals as `helper('/api/…', …)`.
  const helper = new RegExp(`const ([A-Za-z_][A-Za-z0-9_]*) = \\(\\s*${name}\\b`).exec(text);
  if (helper?.[1]) {
    const calls = [
      ...text.matchAll(new RegExp(`\\b${helper[1]}\\(\\s*(['"\`])(/[^'"\`$]*)\\1`, 'g')),
    ];
    if (calls.length > 0) return calls.map((call) => call[2] ?? '');
  }
  return null;
}

export function registeredRoutes(): { routes: Route[]; unresolved: string[] } {
  const routes: Route[] = [];
  const unresolved: string[] = [];
  for (const file of sourceFiles('server')) {
    const text = read(file);
    for (const match of text.matchAll(
      /\b(?:app|fastify|instance|server)\.(get|post|put|patch|delete)\(/g,
    )) {
      const method = (match[1] ?? '').toUpperCase();
      const rest = text.slice((match.index ?? 0) + match[0].length);
      const where = `${file}:${lineOf(text, match.index ?? 0)}`;
      const literal = STRING.exec(rest);
      if (literal?.[2]) {
        routes.push({ method, path: literal[2], where });
        continue;
      }
      const identifier = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*,/.exec(rest);
      const paths = identifier?.[1] ? resolveIdentifier(text, identifier[1]) : null;
      if (paths === null || paths.length === 0) unresolved.push(where);
      else for (const value of paths) routes.push({ method, path: value, where });
    }
  }
  return { routes, unresolved };
}

export function frameTypes(): string[] {
  const types = new Set<string>();
  const folder = 'shared/protocol/ws';
  for (const file of sourceFiles(folder)) {
    const text = read(file);
    for (const match of text.matchAll(/\btype:\s*z\.literal\(\s*'([a-z0-9_]+)'\s*\)/g))
      types.add(match[1] ?? '');
    for (const match of text.matchAll(/\btype:\s*z\.enum\(\s*\[([^\]]*)\]/g))
      for (const value of (match[1] ?? '').matchAll(/'([a-z0-9_]+)'/g)) types.add(value[1] ?? '');
  }
  types.delete('');
  return [...types].sort();
}

/** A route's path as the docs may write it: `:name` or `{name}` for a parameter. */
function pathPattern(routePath: string): RegExp {
  const escaped = routePath
    .split('/')
    .map((part) =>
      part.startsWith(':')
        ? '(?::[A-Za-z]+|\\{[A-Za-z]+\\})'
        : part.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`${escaped}(?![A-Za-z0-9/_:{-])`);
}

describe('documentation drift', () => {
  it('finds what it checks in the code (the scan itself works)', () => {
    expect(environmentVariables()).toEqual(
      expect.arrayContaining(['PORT', 'DATABASE_URL', 'REDIS_URL']),
    );
    const { routes } = registeredRoutes();
    const listed = routes.map((route) => `${route.method} ${route.path}`);
    expect(listed).toEqual(
      expect.arrayContaining([
        'GET /api/ping',
        'POST /api/auth/challenge',
        'POST /api/tor/start',
        'GET /api/service-status',
      ]),
    );
    expect(frameTypes()).toEqual(
      expect.arrayContaining(['join_room', 'room_joined', 'key_announce']),
    );
  });

  it('documents every setting the server reads in the README', () => {
    const readme = read('README.md');
    const missing = environmentVariables().filter((name) => !readme.includes(`\`${name}\``));
    expect(missing, 'settings read by the server but not in README.md').toEqual([]);
  });

  it('resolves every route registration it meets', () => {
    expect(
      registeredRoutes().unresolved,
      'route registrations whose path the scan cannot tell',
    ).toEqual([]);
  });

  it('documents the realtime paths (upgrades, not Fastify routes) in docs/protocol.md', () => {
    const protocol = read('docs/protocol.md');
    for (const realtimePath of REALTIME_PATHS) expect(protocol).toContain(`\`${realtimePath}\``);
  });

  it('documents every HTTP route in docs/protocol.md', () => {
    const protocol = read('docs/protocol.md');
    const missing = registeredRoutes()
      .routes.filter((route) => !pathPattern(route.path).test(protocol))
      .map((route) => `${route.method} ${route.path} (${route.where})`);
    expect(missing, 'routes registered but not in docs/protocol.md').toEqual([]);
  });

  it('documents every WebSocket frame type in docs/protocol.md', () => {
    const protocol = read('docs/protocol.md');
    // Written as `type` or with its fields, `type {…}`.
    const missing = frameTypes().filter((type) => !new RegExp(`\`${type}[\` ]`).test(protocol));
    expect(missing, 'frame types in shared/protocol/ws but not in docs/protocol.md').toEqual([]);
  });
});
