/**
 * Prometheus metrics. Off unless METRICS_TOKEN is set (nothing is collected then); with it,
 * `GET /metrics` needs `Authorization: Bearer <METRICS_TOKEN>`. Each server instance has its own
 * registry so that tests can run several in one process.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { TEXT } from '../../shared/protocol/errors.js';
import type { RequestPacingStats } from '../lib/request-pacing.js';
import type { HubMetrics } from '../realtime/hub.js';

export interface Metrics {
  registry: Registry;
  hub: HubMetrics;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  /** Reports what the request pacing (server/lib/request-pacing.ts) has done, when scraped. */
  observePacing(stats: RequestPacingStats): void;
  /** Reports whether the process is degraded (Redis away; server/redis/redis-health.ts). */
  observeDegraded(isDegraded: () => boolean): void;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'securechannel_' });
  const connections = new Gauge({
    name: 'securechannel_ws_connections',
    help: 'Open WebSocket connections',
    registers: [registry],
  });
  const frames = new Counter({
    name: 'securechannel_ws_frames_total',
    help: 'WebSocket frames received, by type and outcome',
    labelNames: ['type', 'outcome'] as const,
    registers: [registry],
  });
  const httpDuration = new Histogram({
    name: 'securechannel_http_request_duration_seconds',
    help: 'HTTP request duration',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  return {
    registry,
    httpDuration,
    observePacing: (stats) => {
      new Counter({
        name: 'securechannel_http_requests_deferred_total',
        help: 'HTTP requests that waited at least one event-loop turn (request pacing)',
        registers: [registry],
        collect() {
          this.reset();
          this.inc(stats.deferred);
        },
      });
      new Gauge({
        name: 'securechannel_http_requests_waiting',
        help: 'HTTP requests waiting for their turn now (request pacing)',
        registers: [registry],
        collect() {
          this.set(stats.waiting);
        },
      });
    },
    observeDegraded: (isDegraded) => {
      new Gauge({
        name: 'securechannel_redis_degraded',
        help: '1 while Redis is away or not every process is back yet (room messages refused), else 0',
        registers: [registry],
        collect() {
          this.set(isDegraded() ? 1 : 0);
        },
      });
    },
    hub: {
      onFrame: (type, outcome) => frames.inc({ type, outcome }),
      onConnectionsChanged: (count) => connections.set(count),
    },
  };
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Serves `/metrics` and records request durations when a token is configured (`enabled`); without
 * one nothing is recorded and `/metrics` answers 404.
 */
export function registerMetrics(
  app: FastifyInstance,
  enabled: { metrics: Metrics; token: string } | null,
): void {
  // Answered even while the rate-limit counters (in Redis) are away: an outage is when the
  // metrics are wanted (securechannel_redis_degraded).
  const options = { schema: { hide: true }, config: { rateLimit: { skipOnError: true } } };
  app.get('/metrics', options, async (request, reply) => {
    if (!enabled) return reply.code(404).send({ error: 'Metrics are disabled: set METRICS_TOKEN' });
    const header = request.headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? header.slice(7) : '';
    if (!sameSecret(given, enabled.token))
      return reply.code(401).send({ error: TEXT.unauthorized });
    const { registry } = enabled.metrics;
    return reply.type(registry.contentType).send(await registry.metrics());
  });
  if (!enabled) return;
  const { metrics } = enabled;
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpDuration.observe(
      { method: request.method, route, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
}
