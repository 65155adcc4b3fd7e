/**
 * The JSON-lines protocol between the bench and its login driver child (load/login-driver.ts):
 * one request per line on the child's stdin, one response per line on its stdout.
 */
import { z } from 'zod';

/**
 * How a login reaches the server: `socket`, the `login_challenge` and `login_verify` frames on
 * chat sockets opened beforehand (`openSockets`), as the client logs in on its chat socket; or
 * `http`, the routes `POST /api/auth/challenge` and `POST /api/auth/verify`.
 */
export const LoginTransportSchema = z.enum(['socket', 'http']);
export type LoginTransport = z.infer<typeof LoginTransportSchema>;

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
  /**
   * Opens `count` sockets to `wsUrl` (`/chat-ws`) for the `socket` transport, added to those
   * already open, at most `perAddress` from each loopback source address (load/login-driver.ts).
   * They stay open, unjoined, until `closeSockets`; a login takes an idle one, sends its frames
   * and gives it back, so a socket carries one login at a time.
   */
  z.object({
    id: z.number(),
    cmd: z.literal('openSockets'),
    wsUrl: z.string(),
    count: z.number().int().positive(),
    perAddress: z.number().int().positive(),
  }),
  /** Closes every socket `openSockets` opened. */
  z.object({ id: z.number(), cmd: z.literal('closeSockets') }),
  /** Runs `logins` whole logins (challenge → sign → verify), `concurrency` at a time. */
  z.object({
    id: z.number(),
    cmd: z.literal('logins'),
    transport: LoginTransportSchema,
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
    transport: LoginTransportSchema,
    logins: z.number().int().positive(),
    concurrency: z.number().int().positive(),
  }),
  /** Starts whole logins at `rate` a second for `durationMs`, then waits for all of them. */
  z.object({
    id: z.number(),
    cmd: z.literal('steady'),
    transport: LoginTransportSchema,
    rate: z.number().positive(),
    durationMs: z.number().int().positive(),
  }),
  /**
   * Sends the prepared verifications, `concurrency` at a time, over `transport` (whichever the
   * challenges came by: a challenge is bound to its key, not to a socket).
   */
  z.object({
    id: z.number(),
    cmd: z.literal('verifyPrepared'),
    transport: LoginTransportSchema,
    concurrency: z.number().int().positive(),
  }),
]);
export type LoginRequest = z.infer<typeof LoginRequestSchema>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A request without its id: what callers of the driver write. */
export type LoginCommand = DistributiveOmit<LoginRequest, 'id'>;

export const SetupResultSchema = z.object({ keygenMs: z.number(), registerMs: z.number() });

export const OpenSocketsResultSchema = z.object({
  /** Sockets open now (this call's and earlier ones'). */
  open: z.number(),
  /** Source addresses this call's sockets came from. */
  addresses: z.array(z.string()),
  wallMs: z.number(),
});
export const CloseSocketsResultSchema = z.object({
  closed: z.number(),
  /** Hub `error` frames "rate limited" the closed sockets received over their life. */
  rateLimited: z.number(),
});

export const LoginRunResultSchema = z.object({
  /**
   * Phase times as epoch milliseconds with fractions (performance.timeOrigin + now), comparable
   * across processes: the first request, the last challenge answered, the last answer.
   */
  startedAt: z.number(),
  challengesDoneAt: z.number(),
  endedAt: z.number(),
  wallMs: z.number(),
  transport: LoginTransportSchema,
  ok: z.number(),
  /**
   * Refusals of the server's login queue (HTTP 503, or an `error` frame with
   * `retryAfterSeconds`); each was retried after its Retry-After.
   */
  busy: z.number(),
  /**
   * `socket`: frames the hub dropped for the socket's frame rate (its `error` frame "rate
   * limited"), each counted as a failure of its login. Always 0 over `http`.
   */
  rateLimited: z.number(),
  failed: z.number(),
  /** The first few failure descriptions (HTTP status or frame type, and error text). */
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
