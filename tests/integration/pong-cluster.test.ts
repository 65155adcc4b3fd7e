/**
 * Pong across processes (spec 001 §2–§9, DESIGN.md principle 4): two server processes on one
 * PostgreSQL and one Redis. The game lives on the process of the first player; the second plays
 * it from the other process through Redis pub/sub. When the hosting process shuts down, the
 * player on the other process is told and lands in a fresh game hosted by its own process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PONG_TEXT } from '../../shared/protocol/ws/pong.js';
import { createThrowawayPostgres } from '../support/database.js';
import { login, makeRegisteredKey } from '../support/keys.js';
import { connectPongPlayer, type PongPlayer } from '../support/pong-player.js';
import { startServerProcess, type ServerProcess } from '../support/processes.js';
import { deletePrefix, REDIS_TEST_URL, testPrefix } from '../support/redis.js';
import { connectRedis } from '../../server/redis/connect.js';
import { HAS_POSTGRES, HAS_REDIS } from '../support/services.js';

const ADMIN_PASSWORD = 'pong-cluster-admin-password';

describe.runIf(HAS_POSTGRES && HAS_REDIS)('Pong on two processes with Redis', () => {
  let servers: ServerProcess[] = [];
  let drop: () => Promise<void>;
  const prefix = testPrefix();
  const players: PongPlayer[] = [];

  beforeAll(async () => {
    const database = await createThrowawayPostgres();
    drop = database.drop;
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: REDIS_TEST_URL,
      REDIS_PREFIX: prefix,
      ADMIN_PASSWORD,
      PONG_TIME_SCALE: '20',
      LOG_LEVEL: 'info',
    };
    servers = await Promise.all([
      startServerProcess(env, 120_000),
      startServerProcess(env, 120_000),
    ]);
  }, 240_000);

  afterAll(async () => {
    for (const player of players) player.socket.close();
    await Promise.all(servers.map((server) => server.stop('SIGKILL')));
    const redis = await connectRedis(REDIS_TEST_URL, prefix);
    await deletePrefix(redis, prefix);
    await redis.close();
    await drop();
  });

  async function keyHolder(server: ServerProcess, username: string): Promise<PongPlayer> {
    const key = await makeRegisteredKey(server.url, { username, adminPassword: ADMIN_PASSWORD });
    const { body } = await login(server.url, key);
    const url = `${server.url.replace('http', 'ws')}/ws`;
    const player = await connectPongPlayer(url, body.sessionToken as string, username, 'across');
    players.push(player);
    return player;
  }

  it('plays one game to the end between players on different processes', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const alice = await keyHolder(a, 'alice');
    await alice.state((data) => data.playerSide === 'left');
    const bob = await keyHolder(b, 'bob');
    await bob.state((data) => data.playerSide === 'right');
    await alice.state((data) => data.gameState.players.right?.username === 'bob');

    bob.send('start_game');
    await alice.state((data) => data.gameState.gameStatus === 'playing');
    // An out-of-turn frame from the remote process is refused by the host, to its sender only.
    bob.send('start_game');
    await bob.socket.next(
      (frame) => frame.type === 'error' && frame.message === PONG_TEXT.alreadyPlaying,
    );
    alice.dodge();
    bob.dodge();
    const end = await bob.state((data) => data.gameState.gameStatus === 'finished', 30_000);
    expect(Math.max(end.gameState.scores.left, end.gameState.scores.right)).toBe(10);
    const atAlice = await alice.state((data) => data.gameState.gameStatus === 'finished');
    expect(atAlice.gameState.scores).toEqual(end.gameState.scores);
    await bob.socket.nextOfType('cyberpunk_animation');
    expect(alice.seen.filter((type) => type === 'error')).toEqual([]);
  }, 60_000);

  it('ends the game cleanly when its host process goes away', async () => {
    const [a] = servers as [ServerProcess, ServerProcess];
    const bob = players[1] as PongPlayer;
    bob.send('start_game');
    await bob.state((data) => data.gameState.gameStatus === 'playing');
    await a.stop('SIGTERM');
    const notice = await bob.socket.next(
      (frame) => frame.type === 'error' && frame.message === PONG_TEXT.shuttingDown,
      10_000,
    );
    expect(notice.data).toEqual({ message: PONG_TEXT.shuttingDown });
    const fresh = await bob.state(
      (data) =>
        data.gameState.gameStatus === 'waiting' && data.gameState.players.left?.username === 'bob',
      10_000,
    );
    expect(fresh.playerSide).toBe('left');
    expect(fresh.gameState.scores).toEqual({ left: 0, right: 0 });
    expect(fresh.gameState.players.right).toBeNull();
  }, 30_000);
});
