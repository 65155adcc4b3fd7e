/**
 * Route-level code splitting: a page whose module is fetched the first time its route renders.
 * Pages use named exports; React.lazy wants a default one, so the loader picks the export by name.
 * Every route's first-load script is held to a budget (tests/unit/bundle-budget.test.ts).
 */
import { lazy, type ComponentType } from 'react';

export function lazyPage<Name extends string, Props extends object>(
  load: () => Promise<Record<Name, ComponentType<Props>>>,
  name: Name,
) {
  return lazy(async () => ({ default: (await load())[name] }));
}
