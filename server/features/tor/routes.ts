/**
 * Tor routes (spec 000 §7, spec 001 §4, §7). Reading the status is open to every visitor (the
 * status card polls it), and an admin's bearer token adds the admin fields. Everything that
 * changes tor, its logs and the bridges need an admin: a key with the admin permission or an
 * admin console session (guards.requireAdmin). Every change is audited.
 */
import type { FastifyPluginAsync, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBodySchema } from '../../../shared/protocol/http/error-body.js';
import {
  AddBridgeBodySchema,
  AddBridgeRequestSchema,
  BridgeListSchema,
  BridgeParamsSchema,
  BridgeSchema,
  BridgeTestResponseSchema,
  ImportBridgesRequestSchema,
  ImportBridgesResponseSchema,
  TorActionResponseSchema,
  TorConnectResponseSchema,
  TorLogsSchema,
  TorStatusResponseSchema,
  TOR_TEXT,
  type TorStatus,
} from '../../../shared/protocol/http/tor.js';
import { AppError } from '../../errors.js';
import type { BridgeService } from './bridge-service.js';
import type { TorService } from './service.js';

export interface TorRouteDeps {
  tor: TorService;
  bridges: BridgeService;
  requireAdmin: preHandlerAsyncHookHandler;
  /** True when the request carries an admin's bearer token (no error otherwise). */
  isAdmin: (request: FastifyRequest) => Promise<boolean>;
  /** Records an admin action in the audit log. */
  audit: (
    request: FastifyRequest,
    action: TorAuditAction,
    detail?: Record<string, unknown>,
  ) => Promise<void>;
}

type TorRouteAction = 'disconnect' | 'test-hidden-service' | 'start' | 'stop' | 'restart';

/** What Tor actions are called in the audit log. */
export type TorAuditAction =
  | 'tor.start'
  | 'tor.stop'
  | 'tor.restart'
  | 'tor.connect'
  | 'tor.disconnect'
  | 'tor.test-hidden-service'
  | 'tor.bridge_add'
  | 'tor.bridge_import'
  | 'tor.bridge_remove';

const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
  500: ErrorBodySchema,
  503: ErrorBodySchema,
};

export function torRoutes(deps: TorRouteDeps): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const admin = { preHandler: deps.requireAdmin };

    app.get(
      '/api/tor/status',
      {
        schema: {
          tags: ['tor'],
          summary:
            'Tor status: connected, circuits, bandwidth, hiddenServiceReachable, onionAddress; an admin bearer adds running, ports, hiddenServiceReady, uptime',
          response: { 200: TorStatusResponseSchema },
        },
      },
      async (request) => {
        const status = await deps.tor.status();
        if (await deps.isAdmin(request)) return status;
        const visible: TorStatus = {
          state: status.state,
          connected: status.connected,
          circuits: status.circuits,
          bandwidth: status.bandwidth,
          hiddenServiceReachable: status.hiddenServiceReachable,
          onionAddress: status.onionAddress,
          bootstrapProgress: status.bootstrapProgress,
        };
        return visible;
      },
    );

    const action = (
      route: `/api/tor/${TorRouteAction}`,
      summary: string,
      run: () => Promise<{ success: boolean; message: string; onionAddress: string | null }>,
    ) =>
      app.post(
        route,
        {
          ...admin,
          schema: {
            tags: ['tor'],
            summary,
            response: { 200: TorActionResponseSchema, ...errors },
          },
        },
        async (request) => {
          const result = await run();
          const name = route.slice('/api/tor/'.length) as TorRouteAction; // the template type says so
          await deps.audit(request, `tor.${name}`, { success: result.success });
          return result;
        },
      );

    app.post(
      '/api/tor/connect',
      {
        ...admin,
        schema: {
          tags: ['tor'],
          summary: 'TOR CONNECT: enable the network (starting tor if needed)',
          response: { 200: TorConnectResponseSchema, ...errors },
        },
      },
      async (request) => {
        const result = await deps.tor.connect();
        await deps.audit(request, 'tor.connect');
        return result;
      },
    );
    action('/api/tor/disconnect', 'TOR DISCONNECT: disable the network', () =>
      deps.tor.disconnect(),
    );
    action(
      '/api/tor/test-hidden-service',
      'Fetch /api/ping from our onion address through tor',
      () => deps.tor.testHiddenService(),
    );
    action('/api/tor/start', 'Start tor (network disabled)', () => deps.tor.start());
    action('/api/tor/stop', 'Stop tor', () => deps.tor.stop());
    action('/api/tor/restart', 'Restart tor', () => deps.tor.restart());

    app.get(
      '/api/tor/logs',
      {
        ...admin,
        schema: {
          tags: ['tor'],
          summary: "tor's last log lines, oldest first",
          response: { 200: TorLogsSchema, ...errors },
        },
      },
      () => ({ logs: deps.tor.logs.last() }),
    );

    app.get(
      '/api/tor/bridges',
      {
        ...admin,
        schema: {
          tags: ['tor'],
          summary: 'Stored bridges and missing transport binaries',
          response: { 200: BridgeListSchema, ...errors },
        },
      },
      () => deps.bridges.list(),
    );

    app.post(
      '/api/tor/bridges',
      {
        ...admin,
        schema: {
          tags: ['tor'],
          summary: 'Add a bridge (address and fingerprint required)',
          body: AddBridgeBodySchema,
          response: { 200: BridgeSchema, ...errors },
        },
      },
      async (request) => {
        const parsed = AddBridgeRequestSchema.safeParse(request.body);
        if (!parsed.success) {
          // The schema's messages are fixed texts, never the input.
          throw new AppError(
            'INVALID_BRIDGE',
            400,
            parsed.error.issues[0]?.message ?? TOR_TEXT.invalidBridgeTitle,
          );
        }
        const bridge = await deps.bridges.add(parsed.data);
        await deps.audit(request, 'tor.bridge_add', { id: bridge.id, type: bridge.type });
        return bridge;
      },
    );

    app.post(
      '/api/tor/bridges/import',
      {
        ...admin,
        schema: {
          tags: ['tor'],
          summary: 'Import bridges, one `type address fingerprint [key=value ...]` a line',
          body: ImportBridgesRequestSchema,
          response: { 200: ImportBridgesResponseSchema, ...errors },
        },
      },
      async (request) => {
        const result = await deps.bridges.import(request.body.config);
        await deps.audit(request, 'tor.bridge_import', {
          imported: result.imported,
          rejected: result.rejected,
        });
        return result;
      },
    );

    app.post(
      '/api/tor/bridges/:id/test',
      {
        ...admin,
        schema: {
          tags: ['tor'],
          summary:
            'Test a bridge: its transport is installed and (obfs4, webtunnel) its address answers',
          params: BridgeParamsSchema,
          response: { 200: BridgeTestResponseSchema, ...errors },
        },
      },
      (request) => deps.bridges.test(request.params.id),
    );

    app.delete(
      '/api/tor/bridges/:id',
      {
        ...admin,
        schema: {
          tags: ['tor'],
          summary: 'Remove a bridge',
          params: BridgeParamsSchema,
          response: { 200: TorActionResponseSchema.pick({ success: true }), ...errors },
        },
      },
      async (request) => {
        await deps.bridges.remove(request.params.id);
        await deps.audit(request, 'tor.bridge_remove', { id: request.params.id });
        return { success: true };
      },
    );
  };
}
