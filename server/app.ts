/**
 * buildServer(config, deps): registers plugins and features in a fixed order and returns the app
 * with its parts. It never listens: main.ts does, and tests listen on port 0.
 */
import { readFileSync } from 'node:fs';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import pino, { type DestinationStream } from 'pino';
import { LIMITS } from '../shared/constants.js';
import type { Config, TrustProxySetting } from './config.js';
import { openDatabase, type Database } from './db/connect.js';
import { composeFeatures } from './compose.js';
import { errorForLog, logMethodWithoutErrorMessages } from './lib/log-error.js';
import { TurnQueue } from './lib/turns.js';
import {
  DEFAULT_LOGIN_ADMISSION,
  LoginAdmission,
  VerifyPool,
  refuseBusyLoginsEarly,
  socketPeer,
  type LoginAdmissionLimits,
} from './features/auth/index.js';
import { DEFAULT_HELD_MESSAGE_BUDGET, type HeldMessageBudget } from './features/messages/index.js';
import type { PrivacyLookup } from './features/privacy/index.js';
import { registerErrorHandler } from './plugins/error-handler.js';
import {
  DEFAULT_HTTP_TIMEOUTS,
  serverTimeoutOptions,
  type HttpTimeouts,
} from './plugins/http-timeouts.js';
import { registerInputGuard } from './plugins/input-guard.js';
import { createMetrics, registerMetrics } from './plugins/metrics.js';
import { REDACT_PATHS, serializeRequest } from './plugins/redaction.js';
import { registerSecurityHeaders } from './plugins/security-headers.js';
import { registerSpa } from './plugins/spa.js';
import type { Fanout } from './realtime/fanout.js';
import { createSharedState, httpRateLimitStore, type SharedState } from './shared-state.js';
import { Hub } from './realtime/hub.js';
import { RoomChannels } from './realtime/room-channels.js';
import { UserChannels } from './realtime/user-channels.js';
import { registerRealtime } from './realtime/routes.js';
import { visitorOfRequest } from './lib/visitor.js';
import { paceRequests } from './lib/request-pacing.js';
import { chooseLogFormat, DebugRequestLogController, textDestination } from './lib/log-output.js';

export interface ServerDeps {
  /** An already-open database; otherwise one is opened from the config. */
  database?: Database;
  /** Where log lines go (tests capture them); stdout otherwise. */
  logStream?: DestinationStream;
  /** Clock for everything time-based. */
  now?: () => number;
  /** Per-address login calls (challenge and verify) allowed per minute; default 30. */
  loginRatePerMinute?: number;
  /**
   * The verify pool's threads (default: one per core beyond the first, one or two) and the bound
   * of its queue (DEFAULT_LOGIN_ADMISSION): verifications past it are refused with 503.
   */
  loginVerification?: Partial<LoginAdmissionLimits> & {
    workers?: number;
    /** The workers' script (tests give one that holds its jobs). */
    workerUrl?: URL;
  };
  /** Failed login verifications allowed per key and address in 15 minutes; default 10. */
  keyLoginFailuresPerWindow?: number;
  /** Rooms one address may create in ten minutes; default 10. */
  roomCreationsPerTenMinutes?: number;
  /** Rooms all visitors without a key may create together in ten minutes; default 60. */
  anonymousRoomCreationsPerTenMinutes?: number;
  /** Payments one address may open in ten minutes; default 10 (everyone together: 50 times that). */
  paymentCreationsPerTenMinutes?: number;
  /** Where a generated admin password is printed once, if interactive; stdout by default. */
  announce?: (message: string) => void;
  /** Replaces the configured IP-information lookup of the privacy check; null for none. */
  privacyLookup?: PrivacyLookup | null;
  /** How often the server tests every bridge while tor runs (tests); default 30 s. */
  bridgeTestIntervalMs?: number;
  /** How often the onion service tests itself while connected (tests); default 30 s. */
  torSelfTestIntervalMs?: number;
  /**
   * Whether `announce` reaches a person at a terminal; default: stdout is a TTY. Also chooses the
   * log's format when LOG_FORMAT is unset (server/lib/log-output.ts).
   */
  isInteractive?: boolean;
  /** The HTTP server's deadlines (server/plugins/http-timeouts.ts); tests shorten them. */
  httpTimeouts?: Partial<HttpTimeouts>;
  /**
   * How long an upload may take to arrive before it is cut and its quota hold given back;
   * default UPLOAD_HOLD_MS (server/features/images/routes.ts).
   */
  uploadHoldMs?: number;
  /** Bytes of held room messages per visitor and in all (server/features/messages/store.ts). */
  heldMessageBudget?: Partial<HeldMessageBudget>;
  /**
   * How long a room's joins wait to be told together (RoomChannels.announceJoin); default
   * COALESCE_WINDOW_MS. Tests lengthen it to have several joins in one window for certain.
   */
  joinWindowMs?: number;
}

export type Server = ServerCore & Omit<Awaited<ReturnType<typeof composeFeatures>>, 'stopTimers'>;

interface ServerCore {
  app: FastifyInstance;
  hub: Hub;
  database: Database;
  fanout: Fanout;
  shared: SharedState;
  channels: RoomChannels;
  config: Config;
}

/**
 * How long a shutdown waits for its closed sockets to leave their rooms before closing Redis and
 * the database (main.ts exits after 10 s in all).
 */
const SHUTDOWN_DRAIN_MS = 3000;

/** Requests one visitor (server/lib/visitor.ts) may make in a minute, WebSocket upgrades included. */
export const HTTP_REQUESTS_PER_MINUTE = 1000;
/**
 * Requests for the client's hashed files (`/assets/…`) one address may make in a minute, counted
 * apart from the others: with the client split per route and action (issue 22), one page load
 * fetches up to about a hundred of them, and browsers keep them (immutable) afterwards.
 */
export const ASSET_REQUESTS_PER_MINUTE = 10_000;

function isAssetRequest(request: { raw: { method?: string; url?: string } }): boolean {
  const { method, url } = request.raw;
  return (method === 'GET' || method === 'HEAD') && url !== undefined && url.startsWith('/assets/');
}

export async function buildServer(config: Config, deps: ServerDeps = {}): Promise<Server> {
  const isInteractive = deps.isInteractive ?? process.stdout.isTTY === true;
  // A log stream given by a test is read as JSON unless the test says it plays a terminal.
  const logFormat = chooseLogFormat({
    configured: config.logFormat,
    isTerminal: deps.isInteractive ?? (deps.logStream === undefined && isInteractive),
  });
  // On a terminal the lines are few and written at once, so the banner main.ts prints after
  // listening comes after them rather than among them.
  const destination =
    deps.logStream ??
    (logFormat === 'text' ? pino.destination({ dest: 1, sync: true }) : pino.destination(1));
  const logger = pino(
    {
      level: config.logLevel,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      // Errors by name and code only, wherever they are logged from (server/lib/log-error.ts).
      serializers: { req: serializeRequest, err: errorForLog },
      hooks: { logMethod: logMethodWithoutErrorMessages },
    },
    logFormat === 'text' ? textDestination(destination) : destination,
  );
  // Every request, header and body, and every idle socket has a deadline, on HTTP and HTTPS alike.
  const timeouts = serverTimeoutOptions({ ...DEFAULT_HTTP_TIMEOUTS, ...deps.httpTimeouts });
  const app = Fastify({
    loggerInstance: logger,
    ...(logFormat === 'text' ? { logController: new DebugRequestLogController() } : {}),
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: LIMITS.httpBodyBytes,
    ...timeouts.fastify,
    ...(config.tls
      ? {
          https: {
            cert: readFileSync(config.tls.certPath),
            key: readFileSync(config.tls.keyPath),
            ...timeouts.node,
          },
        }
      : { http: timeouts.node }),
  }) as unknown as FastifyInstance; // the https overload's type differs only in the raw server
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  parseLargeJsonInTurns(app);

  const database =
    deps.database ??
    (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  const now = deps.now ?? Date.now;
  const shared = await createSharedState(config, now, {
    heldMessageBudget: { ...DEFAULT_HELD_MESSAGE_BUDGET, ...deps.heldMessageBudget },
  });
  const fanout: Fanout = shared.fanout;
  // Collected only when someone can read them: the event-loop monitor, the GC observer and the
  // per-frame counters cost CPU on every process.
  const metrics = config.metricsToken
    ? { metrics: createMetrics(), token: config.metricsToken }
    : null;
  const hub = new Hub({ logger: app.log, metrics: metrics?.metrics.hub, now });
  const verifier = new VerifyPool({
    ...(deps.loginVerification?.workers ? { size: deps.loginVerification.workers } : {}),
    ...(deps.loginVerification?.workerUrl ? { workerUrl: deps.loginVerification.workerUrl } : {}),
    onReady: ({ implementation, fallbackReason }) => {
      if (fallbackReason === null) {
        app.log.info({ implementation }, 'login verification: ML-DSA-65 at native speed');
      } else {
        app.log.warn(
          { implementation, reason: fallbackReason },
          'login verification: fast ML-DSA-65 unavailable, using the pure JavaScript fallback',
        );
      }
    },
  });
  const loginAdmission = new LoginAdmission(verifier, {
    maxPending: deps.loginVerification?.maxPending ?? DEFAULT_LOGIN_ADMISSION.maxPending,
    maxPendingPerVisitor:
      deps.loginVerification?.maxPendingPerVisitor ?? DEFAULT_LOGIN_ADMISSION.maxPendingPerVisitor,
  });

  // Cross-cutting plugins first, in a fixed order.
  // Security headers on every response (CSP, Permissions-Policy, helmet's others).
  const writeSecurityHeaders = registerSecurityHeaders(app, {
    tls: config.tls !== null,
    allowedOrigins: config.allowedOrigins,
  });
  // A verification past the queue's bound is refused before Fastify sees it (login-refusal.ts).
  refuseBusyLoginsEarly(app.server, {
    admission: loginAdmission,
    writeSecurityHeaders,
    visitorOf: config.trustProxy === false ? socketPeer : () => null,
  });
  // Outermost: a flood of requests reaches the handlers a few a turn, so chat frames are read
  // between them (server/lib/request-pacing.ts).
  const pacing = paceRequests(app.server);
  metrics?.metrics.observePacing(pacing);
  const redisHealth = shared.redisHealth;
  if (redisHealth) metrics?.metrics.observeDegraded(() => redisHealth.isDegraded);
  // After the headers, so that its 400 answers carry them too.
  registerInputGuard(app);
  await app.register(rateLimit, {
    ...httpRateLimitStore(shared),
    global: true,
    // The client's hashed files have their own count: a page load fetches dozens of chunks.
    max: (request) =>
      isAssetRequest(request) ? ASSET_REQUESTS_PER_MINUTE : HTTP_REQUESTS_PER_MINUTE,
    timeWindow: '1 minute',
    // Per visitor: an IPv4 address, an IPv6 /64, an onion circuit (server/lib/visitor.ts).
    keyGenerator: (request) =>
      isAssetRequest(request) ? `${visitorOfRequest(request)}|assets` : visitorOfRequest(request),
    errorResponseBuilder: (_request, context) => ({
      statusCode: context.statusCode,
      error: 'Too many requests',
    }),
  });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'SecureChannel API',
        description:
          'HTTP API of SecureChannel. Realtime frames are documented in docs/protocol.md.',
        version: '1.0.0',
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(multipart, {
    limits: { fileSize: LIMITS.httpBodyBytes, files: 1, fields: 20 },
  });
  registerMetrics(app, metrics);

  // Features, in a fixed order, then the realtime endpoints and the client.
  const channels = new RoomChannels(fanout, deps.joinWindowMs);
  const users = new UserChannels(fanout);
  const features = await composeFeatures({
    app,
    config,
    database,
    hub,
    channels,
    users,
    shared,
    verifier,
    loginAdmission,
    now,
    announce: deps.announce ?? ((message) => process.stdout.write(message)),
    isInteractive,
    loginRatePerMinute: deps.loginRatePerMinute ?? 30,
    keyLoginFailuresPerWindow: deps.keyLoginFailuresPerWindow ?? 10,
    roomCreationsPerTenMinutes: deps.roomCreationsPerTenMinutes ?? 10,
    ...(deps.privacyLookup !== undefined ? { privacyLookup: deps.privacyLookup } : {}),
    ...(deps.bridgeTestIntervalMs !== undefined
      ? { bridgeTestIntervalMs: deps.bridgeTestIntervalMs }
      : {}),
    ...(deps.torSelfTestIntervalMs !== undefined
      ? { torSelfTestIntervalMs: deps.torSelfTestIntervalMs }
      : {}),
    anonymousRoomCreationsPerTenMinutes: deps.anonymousRoomCreationsPerTenMinutes,
    paymentCreationsPerTenMinutes: deps.paymentCreationsPerTenMinutes ?? 10,
    ...(deps.uploadHoldMs !== undefined ? { uploadHoldMs: deps.uploadHoldMs } : {}),
  });
  await registerRealtime(
    app,
    hub,
    {
      allowedOrigins: config.allowedOrigins,
      maxSocketsPerAddress: config.maxSocketsPerAddress,
      maxOnionSockets: config.maxOnionSockets,
      trustProxy: fastifyTrustProxy(config.trustProxy),
    },
    writeSecurityHeaders,
  );
  await registerSpa(app, config.clientDist);

  // Shutdown: the realtime plugin closes sockets with 1001, requests drain, the closed sockets
  // leave their rooms (on every process), then the timers stop and the database and the fan-out
  // close.
  app.addHook('onClose', async () => {
    await hub.drained(SHUTDOWN_DRAIN_MS);
    features.stopTimers();
    await verifier.close();
    await fanout.close();
    await shared.close();
    if (!deps.database) await database.close();
  });

  return {
    app,
    hub,
    database,
    fanout,
    shared,
    channels,
    config,
    ...features,
  };
}

/**
 * TRUST_PROXY as Fastify takes it. A hop count becomes a function trusting the first `n` hops
 * (the socket's peer and the `n − 1` nearest X-Forwarded-For entries), as Express counts hops:
 * Fastify itself no longer honours a bare number.
 */
export function fastifyTrustProxy(
  setting: TrustProxySetting,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting !== 'number') return setting;
  const hops = setting;
  return (_address, hop) => hop < hops;
}

/** Bodies from this size on are parsed (and validated and handled) one per event-loop turn. */
const LARGE_JSON_BYTES = 4096;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A route's own reader of its large JSON bodies' common form (e.g. `scanVerifyRequest`): its
     * non-null value becomes the body, passed to the route's validator as is; on null the text is
     * parsed as any other. Whatever it yields must be what the route's schema would make of the
     * text.
     */
    scanJsonBody?: (text: string) => object | null;
  }
}

/**
 * JSON bodies keep Fastify's own parser (prototype-poisoning checks included). Large ones, a login
 * verification carries about 13 KB of signature bytes as numbers, are parsed in a turn queue
 * (server/lib/turns.ts): parsing, validation and the synchronous start of the handler then happen
 * one request per event-loop turn, so a burst of them lets chat frames through in between. A route
 * may read its bodies' common form itself, in that turn (`scanJsonBody` in its config: the login
 * verification, whose signatures then go straight into bytes).
 */
function parseLargeJsonInTurns(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const turns = new TurnQueue();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, raw, done) => {
    const body = typeof raw === 'string' ? raw : raw.toString('utf8');
    if (body.length < LARGE_JSON_BYTES) {
      parseJson(request, body, done);
      return;
    }
    const scanBody = request.routeOptions.config.scanJsonBody;
    void turns.run(() => {
      const scanned = scanBody?.(body) ?? null;
      if (scanned !== null) {
        done(null, scanned);
        return;
      }
      // Fastify's parser looks for prototype-poisoning keys with a regular expression over the
      // whole text (about 0.15 ms for a login body). Such a key is spelled out, or written with
      // \u escapes; text containing neither can go straight to JSON.parse. Anything else, and
      // any syntax error, goes through Fastify's parser for its checks and its error.
      if (!body.includes('proto') && !body.includes('constructor') && !body.includes('\\u')) {
        let value: unknown;
        try {
          value = JSON.parse(body);
        } catch {
          parseJson(request, body, done);
          return;
        }
        done(null, value);
        return;
      }
      parseJson(request, body, done);
    });
  });
}
