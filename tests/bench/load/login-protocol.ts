/**
 * The JSON-lines protocol between the bench and its login driver child (load/login-driver.ts):
 * one request per line on the child's stdin, one response per line on its stdout.
 */
import { z } from 'zod';

export const DistributionSchema = z.object({
  count: z.number(),
  mean: z.number(),
  p50: z.number(),
  p95: z.number(),
  p99: z.number(),
  max: z.number(),
});

export const LoginRequestSchema = z.discriminatedUnion('cmd', [
  /** Makes `keys` key files and registers them through the admin API. */
  z.object({
    id: z.number(),
    cmd: z.literal('setup'),
    baseUrl: z.string(),
    adminPassword: z.string(),
    keys: z.number().int().positive(),
  }),
  /** Runs `logins` whole logins (challenge → sign → verify), `concurrency` at a time. */
  z.object({
    id: z.number(),
    cmd: z.literal('logins'),
    logins: z.number().int().positive(),
    concurrency: z.number().int().positive(),
  }),
  /**
   * Fetches `logins` challenges (`concurrency` at a time), then signs them all, and keeps the
   * verify bodies for `verifyPrepared`.
   */
  z.object({
    id: z.number(),
    cmd: z.literal('prepare'),
    logins: z.number().int().positive(),
    concurrency: z.number().int().positive(),
  }),
  /** Starts whole logins at `rate` a second for `durationMs`, then waits for all of them. */
  z.object({
    id: z.number(),
    cmd: z.literal('steady'),
    rate: z.number().positive(),
    durationMs: z.number().int().positive(),
  }),
  /** Sends the prepared verify bodies, `concurrency` at a time. */
  z.object({
    id: z.number(),
    cmd: z.literal('verifyPrepared'),
    concurrency: z.number().int().positive(),
  }),
]);
export type LoginRequest = z.infer<typeof LoginRequestSchema>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A request without its id: what callers of the driver write. */
export type LoginCommand = DistributiveOmit<LoginRequest, 'id'>;

export const SetupResultSchema = z.object({ keygenMs: z.number(), registerMs: z.number() });

export const LoginRunResultSchema = z.object({
  /**
   * Phase times as epoch milliseconds with fractions (performance.timeOrigin + now), comparable
   * across processes: the first request, the last challenge answered, the last answer.
   */
  startedAt: z.number(),
  challengesDoneAt: z.number(),
  endedAt: z.number(),
  wallMs: z.number(),
  ok: z.number(),
  /** 503 answers of the server's login queue; each was retried after its Retry-After. */
  busy: z.number(),
  failed: z.number(),
  /** The first few failure descriptions (HTTP status and error text). */
  failures: z.array(z.string()),
  challengeMs: DistributionSchema,
  signMs: DistributionSchema,
  verifyMs: DistributionSchema,
  totalMs: DistributionSchema,
});
export type LoginRunResult = z.infer<typeof LoginRunResultSchema>;

export const LoginResponseSchema = z.union([
  z.object({ id: z.number(), ok: z.literal(true), result: z.unknown() }),
  z.object({ id: z.number(), ok: z.literal(false), error: z.string() }),
]);
