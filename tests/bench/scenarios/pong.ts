/**
 * Pong on one process: 100 games of two players each run on one PongHost (the product's 60 Hz
 * loop, game logic, state encoding and fan-out) with the product's relay delivering every
 * game_state, paddle_move and moment frame to 200 connections. The sockets under the connections
 * count bytes instead of writing to TCP, so the figure is the game server's own work. Players
 * follow the ball with paddle_move 15 times a second, so rallies, points, power-ups and restarts
 * all happen. Measured: each tick's duration (it must stay under 16.7 ms for 60 Hz), the tick
 * rate held, and the process CPU per game.
 */
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { Connection, type SocketLike } from '../../../server/realtime/connection.js';
import { LocalFanout } from '../../../server/realtime/fanout.js';
import { MemoryGameDirectory } from '../../../server/features/pong/directory.js';
import { PongHost } from '../../../server/features/pong/host.js';
import { PongRelay } from '../../../server/features/pong/relay.js';
import { RedisFanout } from '../../../server/redis/redis-fanout.js';
import { RedisGameDirectory } from '../../../server/redis/redis-pong-directory.js';
import { connectRedis } from '../../../server/redis/connect.js';
import { deletePrefix, REDIS_TEST_URL, testPrefix } from '../../support/redis.js';
import type { BenchContext } from '../context.js';
import { fixed, type ScenarioReport } from '../report.js';
import { distribution, Samples } from '../stats.js';

const TICK_BUDGET_MS = 1000 / 60;

class CountingSocket implements SocketLike {
  readonly readyState = 1;
  readonly bufferedAmount = 0;
  bytes = 0;
  frames = 0;
  send(data: string): void {
    this.bytes += data.length;
    this.frames += 1;
  }
  close(): void {}
}

/**
 * A paddle move from a player on one process to the game on another and back, through Redis:
 * two sets of Redis connections stand for two processes (host and relay on "a", a player's
 * relay on "b"). Measured from `relay.command` on b to b's socket receiving the `paddle_move`
 * the host answers with: the round trip a remote player's input makes.
 */
async function redisRoundTrip(samples: number): Promise<ReturnType<typeof distribution> | null> {
  const prefix = testPrefix();
  let a;
  let b;
  try {
    a = await connectRedis(REDIS_TEST_URL, prefix);
    b = await connectRedis(REDIS_TEST_URL, prefix);
  } catch {
    return null;
  }
  const logger = pino({ level: 'silent' });
  await a.client.set(`${prefix}proc:proc-a`, '1', 'PX', 60_000);
  await b.client.set(`${prefix}proc:proc-b`, '1', 'PX', 60_000);
  const make = (handles: typeof a, processId: string) => {
    const fanout = new RedisFanout(handles);
    const directory = new RedisGameDirectory(handles);
    const host = new PongHost({
      processId,
      fanout,
      directory,
      logger,
      now: Date.now,
      timeScale: 1,
    });
    const relay = new PongRelay({ processId, fanout, directory, host, logger, now: Date.now });
    return { host, relay };
  };
  const processA = make(a, 'proc-a');
  const processB = make(b, 'proc-b');
  const hostSocket = new CountingSocket();
  const remoteSocket = new CountingSocket();
  const hostPlayer = new Connection(hostSocket, '127.0.0.1', '/ws');
  const remotePlayer = new Connection(remoteSocket, '127.0.0.1', '/ws');
  let waiting: (() => void) | null = null;
  remoteSocket.send = (data: string) => {
    if (data.startsWith('{"type":"paddle_move"')) waiting?.();
  };
  await processA.relay.join(hostPlayer, 'remote', 'host');
  await processB.relay.join(remotePlayer, 'remote', 'remote');
  const game = processA.host.peek('remote');
  const deadline = Date.now() + 5000;
  while (game?.players.right === null && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
  await processB.relay.command(remotePlayer, { op: 'start' });
  while (game?.status !== 'playing' && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
  const times = new Samples();
  for (let index = 0; index < samples; index += 1) {
    const arrived = new Promise<void>((resolve) => (waiting = resolve));
    const started = performance.now();
    await processB.relay.command(remotePlayer, { op: 'move', side: 'right', y: (index * 7) % 300 });
    await arrived;
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await processB.relay.leave(remotePlayer);
  await processA.relay.leave(hostPlayer);
  await processA.host.close('bench over');
  await deletePrefix(a, prefix);
  await a.close();
  await b.close();
  return distribution(times.values());
}

export async function runPong(context: BenchContext): Promise<ScenarioReport> {
  const games = context.isQuick ? 20 : 100;
  const seconds = context.isQuick ? 3 : 20;
  const tickDurations = new Samples();
  const logger = pino({ level: 'silent' });
  const fanout = new LocalFanout();
  const directory = new MemoryGameDirectory();
  let seed = 1;
  const host = new PongHost({
    processId: 'bench',
    fanout,
    directory,
    logger,
    now: Date.now,
    timeScale: 1,
    seed: () => seed++,
    onTickTimed: (duration) => tickDurations.push(duration),
  });
  const relay = new PongRelay({
    processId: 'bench',
    fanout,
    directory,
    host,
    logger,
    now: Date.now,
  });

  const players: {
    connection: Connection;
    socket: CountingSocket;
    gameId: string;
    side: 'left' | 'right';
  }[] = [];
  for (let index = 0; index < games; index += 1) {
    const gameId = `bench-${index}`;
    for (const side of ['left', 'right'] as const) {
      const socket = new CountingSocket();
      const connection = new Connection(socket, '127.0.0.1', '/ws');
      await relay.join(connection, gameId, `${side}-${index}`);
      players.push({ connection, socket, gameId, side });
    }
    await relay.command(players.at(-2)!.connection, { op: 'start' });
  }
  context.progress(`pong: ${games} games started, running ${seconds} s`);
  tickDurations.length = 0;

  // Players aim their paddle at the ball, 15 times a second, a little off so points happen.
  let round = 0;
  const input = setInterval(() => {
    round += 1;
    for (const player of players) {
      const game = host.peek(player.gameId);
      if (!game) continue;
      if (game.status === 'finished' && player.side === 'left') {
        void relay.command(player.connection, { op: 'start' });
        continue;
      }
      if (game.status !== 'playing') continue;
      const offset = ((round * 37 + player.gameId.length * 13) % 90) - 45;
      const y = Math.min(Math.max(game.state.ball.y - 40 + offset, 0), 400);
      void relay.command(player.connection, { op: 'move', side: player.side, y });
    }
  }, 1000 / 15);

  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const elapsedMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  clearInterval(input);

  let points = 0;
  let finished = 0;
  for (let index = 0; index < games; index += 1) {
    const game = host.peek(`bench-${index}`);
    if (!game) continue;
    points += game.scores.left + game.scores.right;
    if (game.status === 'finished') finished += 1;
  }
  const bytes = players.reduce((sum, player) => sum + player.socket.bytes, 0);
  const frames = players.reduce((sum, player) => sum + player.socket.frames, 0);
  for (const player of players) await relay.leave(player.connection);
  await host.close('bench over');

  const remote = await redisRoundTrip(context.isQuick ? 50 : 500);
  const ticks = distribution(tickDurations.values());
  const tickRate = tickDurations.length / (elapsedMs / 1000);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const cpuSharePerGame = cpuMs / elapsedMs / games;
  const stateBytes = bytes / frames;
  return {
    scenario: 'pong',
    tables: [
      {
        title: `${games} Pong games × 2 players on one process, ${seconds} s (in-process, frames counted not sent)`,
        columns: ['figure', 'value'],
        rows: [
          ['ticks per second', fixed(tickRate, 1)],
          ['tick mean ms', fixed(ticks.mean, 3)],
          ['tick p50 ms', fixed(ticks.p50, 3)],
          ['tick p99 ms', fixed(ticks.p99, 3)],
          ['tick max ms', fixed(ticks.max, 3)],
          ['CPU per game (% of a core)', fixed(cpuSharePerGame * 100, 3)],
          ['CPU all games (% of a core)', fixed((cpuMs / elapsedMs) * 100, 1)],
          ['frames to players per second', fixed(frames / (elapsedMs / 1000), 0)],
          ['mean frame bytes', fixed(stateBytes, 0)],
          ['points scored', String(points)],
        ],
      },
      {
        title:
          "A remote player's paddle move through Redis and back (other process → host → other process)",
        columns: ['figure', 'ms'],
        rows: remote
          ? [
              ['mean', fixed(remote.mean, 2)],
              ['p50', fixed(remote.p50, 2)],
              ['p99', fixed(remote.p99, 2)],
              ['max', fixed(remote.max, 2)],
            ]
          : [['Redis not reachable', 'n/a']],
      },
    ],
    checks: [
      {
        scenario: 'pong',
        name: `tick p99 (${games} games)`,
        target: `< ${fixed(TICK_BUDGET_MS, 1)} ms`,
        actual: `${fixed(ticks.p99, 3)} ms`,
        pass: ticks.p99 < TICK_BUDGET_MS,
      },
      {
        scenario: 'pong',
        name: 'tick rate held',
        target: '≥ 59 per second',
        actual: fixed(tickRate, 1),
        pass: tickRate >= 59,
      },
      {
        scenario: 'pong',
        name: 'remote move round trip p99',
        target: '< 33.3 ms (one state interval)',
        actual: remote ? `${fixed(remote.p99, 2)} ms` : 'n/a',
        pass: remote ? remote.p99 < 1000 / 30 : null,
      },
      {
        scenario: 'pong',
        name: 'CPU per game',
        target: 'informational',
        actual: `${fixed(cpuSharePerGame * 100, 3)}% of a core`,
        pass: null,
      },
    ],
    notes: [
      'The load generator and the games share this process; the CPU figure includes the scripted players (small: one paddle_move per player 15 times a second).',
      `${finished} games were finished at the end; finished games are restarted by their left player.`,
    ],
    data: {
      games,
      seconds,
      ticks,
      tickRate,
      cpuMs,
      elapsedMs,
      cpuSharePerGame,
      frames,
      bytes,
      points,
    },
  };
}
