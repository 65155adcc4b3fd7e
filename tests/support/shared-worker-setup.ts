/**
 * Test files of every project share their workers' module cache (`isolate: false`
 * in vitest.config.ts): nothing one test changes in the process may outlive it. Stubbed globals
 * and environment variables are undone by the config (`unstubGlobals`, `unstubEnvs`); fake timers
 * here, after every test, whatever the test did or failed to do.
 */
import { afterEach, vi } from 'vitest';

afterEach(() => {
  vi.useRealTimers();
});
