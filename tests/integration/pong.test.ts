/**
 * Quantum Pong over `/ws` on one process (spec 001 §2–§9): two key holders play a scripted game to
 * the end; a visitor is refused with the spec's text; each kind of bad frame gets an error frame
 * and changes nothing; a flood is cut like any other. The server runs the game 20× faster than
 * real time (PONG_TIME_SCALE) so a whole game takes seconds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT } from '../../shared/protocol/errors.js';
import { PONG_TEXT } from '../../shared/protocol/ws/pong.js';
import { login, makeRegisteredKey } from '../support/keys.js';
import { connectPongPlayer, type PongPlayer } from '../support/pong-player.js';
import { startServer, type TestServer } from '../support/server.js';
import { TestSocket, type Frame } from '../support/ws-client.js';

describe('Pong on one process', () => {
  let server: TestServer | undefined;
  const players: PongPlayer[] = [];

  // Generous: PGlite starts slowly on a busy machine.
  beforeAll(async () => {
    server = await startServer({ env: { PONG_TIME_SCALE: '20' } });
  }, 180_000);
  afterAll(async () => {
    for (const player of players) player.socket.close();
    await server?.stop();
  });
  const running = (): TestServer => {
    if (!server) throw new Error('the server did not start');
    return server;
  };

  async function keyHolder(username: string, gameId: string): Promise<PongPlayer> {
    const key = await makeRegisteredKey(running().baseUrl, { username });
    const { body } = await login(running().baseUrl, key);
    const player = await connectPongPlayer(
      running().wsUrl('/ws'),
      body.sessionToken as string,
      username,
      gameId,
    );
    players.push(player);
    return player;
  }
  const isError = (message: string) => (frame: Frame) =>
    frame.type === 'error' && frame.message === message;

  it('lets two key holders play a game to the end, first to 10', async () => {
    const alice = await keyHolder('alice', 'match-one');
    const left = await alice.state((data) => data.playerSide === 'left');
    expect(left.gameState.players.left?.username).toBe('alice');
    expect(left.gameState.gameStatus).toBe('waiting');
    const bob = await keyHolder('bob', 'match-one');
    const right = await bob.state((data) => data.playerSide === 'right');
    expect(right.gameState.players).toMatchObject({
      left: { username: 'alice' },
      right: { username: 'bob' },
    });

    alice.send('start_game');
    await bob.state(
      (data) => data.gameState.gameStatus === 'playing' && data.gameState.mode === 'multiplayer',
    );
    alice.dodge();
    bob.dodge();
    const end = await alice.state((data) => data.gameState.gameStatus === 'finished', 25_000);
    const { scores, winner } = end.gameState;
    expect(Math.max(scores.left, scores.right)).toBe(10);
    expect(winner).toBe(scores.left === 10 ? 'left' : 'right');
    const atBob = await bob.state((data) => data.gameState.gameStatus === 'finished');
    expect(atBob.gameState.scores).toEqual(scores);
    const animation = await bob.socket.nextOfType('cyberpunk_animation');
    expect(animation.data).toEqual({ duration: 3000 });
    expect(typeof animation.timestamp).toBe('number');
    expect(bob.seen).toContain('glitch_effect');
  }, 40_000);

  it('refuses a visitor without a key session with the spec text', async () => {
    const visitor = await connectPongPlayer(running().wsUrl('/ws'), null, 'Agent42', 'match-two');
    players.push(visitor);
    const error = await visitor.socket.next(isError(TEXT.pongRequiresKey));
    expect(error).toMatchObject({
      frameType: 'join_game',
      data: { message: TEXT.pongRequiresKey },
    });
    visitor.send('start_game');
    await visitor.socket.next(isError(TEXT.pongRequiresKey));
    expect(visitor.seen).not.toContain('game_state');
  });

  it('answers every kind of bad frame with an error and changes nothing', async () => {
    const carol = await keyHolder('carol', 'match-three');
    await carol.state((data) => data.playerSide === 'left');
    const dave = await keyHolder('dave', 'match-three');
    await dave.state((data) => data.playerSide === 'right');
    const erin = await keyHolder('erin', 'match-three');
    const spectating = await erin.state((data) => data.gameState.spectators === 1);
    expect(spectating.playerSide).toBeNull();
    const before = carol.latest()?.gameState;

    // Malformed, oversize, out of range.
    carol.socket.send('{"type":"paddle_move",');
    await carol.socket.next(isError('Malformed frame: not valid JSON'));
    carol.socket.send(
      JSON.stringify({ type: 'join_game', data: { username: 'x'.repeat(70_000) } }),
    );
    await carol.socket.next(isError('Frame too large'));
    carol.send('paddle_move', { side: 'left', y: 1000 });
    await carol.socket.next(isError('Invalid paddle_move frame'));
    carol.send('paddle_move', { side: 'left', y: -5 });
    await carol.socket.next(isError('Invalid paddle_move frame'));
    carol.send('join_game', { username: 'carol', gameId: 'Not A Game!' });
    await carol.socket.next(isError('Invalid join_game frame'));
    carol.socket.send(JSON.stringify({ type: 'start_game', data: { force: true } }));
    await carol.socket.next(isError('Invalid start_game frame'));

    // Out of turn.
    carol.send('paddle_move', { side: 'left', y: 100 });
    await carol.socket.next(isError(PONG_TEXT.notPlaying));
    carol.send('paddle_move', { side: 'right', y: 100 });
    await carol.socket.next(isError(PONG_TEXT.notYourPaddle));
    erin.send('start_game');
    await erin.socket.next(isError(PONG_TEXT.spectator));
    erin.send('reset_game');
    await erin.socket.next(isError(PONG_TEXT.spectator));
    const stranger = await keyHolder('frank', 'match-four');
    await stranger.state(() => true);
    stranger.socket.close();
    const loner = await connectPongPlayer(running().wsUrl('/ws'), null, 'Agent7');
    players.push(loner);
    await loner.socket.next(isError(TEXT.pongRequiresKey));

    // Nothing changed for the players: same members, same paddles, still waiting.
    carol.send('join_game', { username: 'carol', gameId: 'match-three' });
    const after = await carol.state(() => true);
    expect(after.gameState.gameStatus).toBe('waiting');
    expect(after.gameState.paddles).toEqual(before?.paddles);
    expect(after.gameState.players).toEqual(before?.players);
    expect(after.gameState.scores).toEqual({ left: 0, right: 0 });

    // Starting twice is out of turn too.
    carol.send('start_game');
    await dave.state((data) => data.gameState.gameStatus === 'playing');
    dave.send('start_game');
    await dave.socket.next(isError(PONG_TEXT.alreadyPlaying));
    dave.send('reset_game');
    await carol.state((data) => data.gameState.gameStatus === 'waiting');
  });

  it('answers frames before a join with "Join the game first"', async () => {
    const key = await makeRegisteredKey(running().baseUrl, { username: 'gina' });
    const { body } = await login(running().baseUrl, key);
    const idle = await TestSocket.connect(running().wsUrl('/ws'));
    idle.send({ type: 'session_auth', sessionToken: body.sessionToken });
    await idle.nextOfType('session_authenticated');
    idle.send({ type: 'paddle_move', data: { side: 'left', y: 10 }, timestamp: Date.now() });
    await idle.next(isError(PONG_TEXT.joinFirst));
    idle.send({ type: 'start_game', timestamp: Date.now() });
    await idle.next(isError(PONG_TEXT.joinFirst));
    idle.close();
  });

  it('cuts a flood of paddle moves like any other flood', async () => {
    const hank = await keyHolder('hank', 'match-eight');
    await hank.state(() => true);
    for (let index = 0; index < 80; index += 1)
      hank.send('paddle_move', { side: 'left', y: index });
    const error = await hank.socket.next(isError('Rate limit exceeded: slow down'));
    expect(error.data).toEqual({ message: 'Rate limit exceeded: slow down' });
  });
});
