/**
 * Which external services the tests may use (set by tests/support/global-setup.ts): the URLs of
 * PostgreSQL and Redis, and whether each is missing, with the reason. Suites that need a missing
 * service leave those parts out (`describe.runIf(HAS_POSTGRES)`, the backend list of the
 * contract suites); the global setup has printed which, and why.
 */
export const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export const POSTGRES_URL =
  process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? DEFAULT_POSTGRES_URL;
export const REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? DEFAULT_REDIS_URL;

/** Null when PostgreSQL is there; else why it is not. */
export const POSTGRES_MISSING: string | null = process.env.TEST_POSTGRES_MISSING ?? null;
export const REDIS_MISSING: string | null = process.env.TEST_REDIS_MISSING ?? null;

export const HAS_POSTGRES = POSTGRES_MISSING === null;
export const HAS_REDIS = REDIS_MISSING === null;

/** What in a test file means it needs PostgreSQL or Redis (for the skip message). */
export const POSTGRES_USE = /HAS_POSTGRES|BACKENDS/;
export const REDIS_USE = /HAS_REDIS/;
