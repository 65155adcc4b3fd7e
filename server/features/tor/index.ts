/**
 * The Tor feature: tor as a managed child process with an onion service for the app, its control
 * port, bridges, and the /api/tor/* routes (DESIGN.md "Tor").
 */
import path from 'node:path';
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Db } from '../../db/connect.js';
import { BridgeService } from './bridge-service.js';
import { createBridgeStore } from './bridges.js';
import { OnionEntrance, type EntranceTarget } from './onion-entrance.js';
import { findTorBinary, isExecutable } from './process.js';
import { torRoutes, type TorAuditAction } from './routes.js';
import { TorService, type TorLogger } from './service.js';
import { createTorDesiredState } from './settings.js';

export { TorService } from './service.js';
export { TorControlClient, TorCommandError, type ControlEvent } from './control-client.js';
export { ControlProtocolError } from './control-reply.js';
export { buildTorrc } from './torrc.js';
export { OnionEntrance, parseCircuitLine } from './onion-entrance.js';

export interface TorFeatureDeps {
  db: Db;
  now: () => number;
  dataDir: string;
  torBin: string | null;
  socksPort: number;
  controlPort: number;
  /** The app's listening address once it listens. */
  appAddress: () => { host: string; port: number } | null;
  /** The app's HTTP(S) server, which onion connections are handed to. */
  appServer: () => EntranceTarget;
  log: TorLogger;
  requireAdmin: preHandlerAsyncHookHandler;
  isAdmin: (request: FastifyRequest) => Promise<boolean>;
  audit: (
    request: FastifyRequest,
    action: TorAuditAction,
    detail?: Record<string, unknown>,
  ) => Promise<void>;
  /** PATH to search for `tor` when TOR_BIN is unset. */
  searchPath: string;
  /** How often the onion service tests itself while connected (tests); default 30 s. */
  selfTestIntervalMs?: number;
}

export function createTorFeature(deps: TorFeatureDeps) {
  const store = createBridgeStore(deps.db, deps.now);
  const bin = findTorBinary(deps.torBin, deps.searchPath);
  const entrance = new OnionEntrance(deps.appServer);
  const tor = new TorService({
    bin,
    directory: path.join(deps.dataDir, 'tor'),
    socksPort: deps.socksPort,
    controlPort: deps.controlPort,
    appAddress: deps.appAddress,
    entrance,
    bridges: store,
    desired: createTorDesiredState(deps.db),
    hasBinary: isExecutable,
    now: deps.now,
    log: deps.log,
    ...(deps.selfTestIntervalMs !== undefined
      ? { selfTestIntervalMs: deps.selfTestIntervalMs }
      : {}),
  });
  const bridges = new BridgeService({ store, tor, hasBinary: isExecutable, now: deps.now });
  return {
    tor,
    entrance,
    bridges,
    routes: torRoutes({
      tor,
      bridges,
      requireAdmin: deps.requireAdmin,
      isAdmin: deps.isAdmin,
      audit: deps.audit,
    }),
  };
}
