/**
 * Quantum Pong (spec 001 §2–§9): server-authoritative games for key holders on `/ws`. The game
 * logic (game.ts, physics.ts, power-ups.ts, ai.ts) knows no transport; host.ts runs the games that
 * live on this process, relay.ts connects this process's sockets to games wherever they live.
 */
import type { FastifyBaseLogger } from 'fastify';
import { TEXT } from '../../../shared/protocol/errors.js';
import { DEFAULT_GAME_ID, PONG_TEXT } from '../../../shared/protocol/ws/pong.js';
import { AppError } from '../../errors.js';
import type { Connection } from '../../realtime/connection.js';
import type { Fanout } from '../../realtime/fanout.js';
import type { Hub } from '../../realtime/hub.js';
import type { GameDirectory } from './directory.js';
import { PongHost } from './host.js';
import { PongRelay } from './relay.js';

export { MemoryGameDirectory, type GameDirectory } from './directory.js';
export { PongGame, PongRuleError } from './game.js';
export { PongHost } from './host.js';
export { seededRandom } from './random.js';

export interface PongFeatureDeps {
  hub: Hub;
  fanout: Fanout;
  directory: GameDirectory;
  processId: string;
  logger: FastifyBaseLogger;
  now: () => number;
  timeScale: number;
}

/** How often claims are kept alive and hosts and members on dead processes are looked for. */
export const PONG_HOUSEKEEPING_MS = 5000;

export function createPongFeature(deps: PongFeatureDeps) {
  const host = new PongHost({
    processId: deps.processId,
    fanout: deps.fanout,
    directory: deps.directory,
    logger: deps.logger,
    now: deps.now,
    timeScale: deps.timeScale,
  });
  const relay = new PongRelay({
    processId: deps.processId,
    fanout: deps.fanout,
    directory: deps.directory,
    host,
    logger: deps.logger,
    now: deps.now,
  });

  /** Pong is for key holders, checked from the socket's session (spec 001 §2, spec 000 §6). */
  const requireKey = (connection: Connection) => {
    if (!connection.identity) throw new AppError('KEY_REQUIRED', 401, TEXT.pongRequiresKey);
  };

  deps.hub.on('join_game', async (connection, frame) => {
    requireKey(connection);
    // The name shown is the key's, never the one the client claims.
    const username = connection.identity?.username ?? frame.data.username;
    await relay.join(connection, frame.data.gameId ?? DEFAULT_GAME_ID, username);
  });
  deps.hub.on('paddle_move', async (connection, frame) => {
    requireKey(connection);
    await relay.command(connection, { op: 'move', side: frame.data.side, y: frame.data.y });
  });
  deps.hub.on('start_game', async (connection) => {
    requireKey(connection);
    await relay.command(connection, { op: 'start' });
  });
  deps.hub.on('reset_game', async (connection) => {
    requireKey(connection);
    await relay.command(connection, { op: 'reset' });
  });
  deps.hub.onDisconnect((connection) => relay.leave(connection));

  const housekeeping = setInterval(() => {
    void (async () => {
      await deps.directory.refresh(host.gameIds(), deps.processId);
      await host.dropDeadMembers();
      await relay.checkHosts();
    })().catch(() => deps.logger.warn('pong housekeeping failed'));
  }, PONG_HOUSEKEEPING_MS);
  housekeeping.unref();

  return {
    host,
    relay,
    /** Ends this process's games cleanly: their members elsewhere move to a fresh game. */
    close: async () => {
      clearInterval(housekeeping);
      relay.isClosing = true;
      await host.close(PONG_TEXT.shuttingDown);
    },
  };
}
