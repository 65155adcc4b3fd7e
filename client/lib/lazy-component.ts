/**
 * Code splitting: a component whose module is fetched the first time it renders (a route's page,
 * or a dialog a page mounts), inside a Suspense boundary. Components use named exports; React.lazy
 * wants a default one, so the loader picks the export by name. Every route's first-load script is
 * held to a budget (tests/unit/client/bundle-budget.test.ts).
 */
import { lazy, type ComponentType } from 'react';

export function lazyComponent<Name extends string, Props extends object>(
  load: () => Promise<Record<Name, ComponentType<Props>>>,
  name: Name,
) {
  return lazy(async () => ({ default: (await load())[name] }));
}
