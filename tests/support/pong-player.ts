/**
 * A scripted Pong player over a real `/ws` socket: it logs in with a key session, joins a game
 * and, once told to, keeps its paddle away from the ball so that every serve ends in a point and a
 * game runs to its end without anyone having to win a rally.
 */
import type { PongGameState, PongSide } from '../../shared/protocol/ws/pong.js';
import { TestSocket, type Frame } from './ws-client.js';

export interface PongPlayer {
  socket: TestSocket;
  /** The latest game_state's data. */
  latest(): { gameState: PongGameState; playerSide: PongSide | null } | null;
  /** Starts dodging the ball with `paddle_move` frames. */
  dodge(): void;
  send(type: string, data?: unknown): void;
  /** Waits for a game_state whose data satisfies `predicate`. */
  state(
    predicate: (data: { gameState: PongGameState; playerSide: PongSide | null }) => boolean,
    timeoutMs?: number,
  ): Promise<{ gameState: PongGameState; playerSide: PongSide | null }>;
  /** Every frame type seen so far, in order. */
  seen: string[];
}

export async function connectPongPlayer(
  url: string,
  sessionToken: string | null,
  username: string,
  gameId?: string,
): Promise<PongPlayer> {
  const socket = await TestSocket.connect(url);
  if (sessionToken) {
    socket.send({ type: 'session_auth', sessionToken });
    await socket.nextOfType('session_authenticated');
  }
  let latest: { gameState: PongGameState; playerSide: PongSide | null } | null = null;
  let isDodging = false;
  let lastAim = -1;
  const seen: string[] = [];
  const send = (type: string, data?: unknown) =>
    socket.send(
      data === undefined ? { type, timestamp: Date.now() } : { type, data, timestamp: Date.now() },
    );
  socket.socket.on('message', (raw) => {
    const frame = JSON.parse(raw.toString()) as Frame;
    seen.push(frame.type);
    if (frame.type !== 'game_state') return;
    latest = frame.data as NonNullable<typeof latest>;
    const { gameState, playerSide } = latest;
    if (!isDodging || !playerSide || gameState.gameStatus !== 'playing') return;
    const aim = gameState.ball.y < 200 ? 320 : 0;
    if (aim === lastAim) return;
    lastAim = aim;
    send('paddle_move', { side: playerSide, y: aim });
  });
  const player: PongPlayer = {
    socket,
    seen,
    latest: () => latest,
    dodge: () => {
      isDodging = true;
    },
    send,
    state: async (predicate, timeoutMs = 10_000) => {
      const frame = await socket.next(
        (candidate) =>
          candidate.type === 'game_state' &&
          predicate(candidate.data as NonNullable<typeof latest>),
        timeoutMs,
      );
      return frame.data as NonNullable<typeof latest>;
    },
  };
  send('join_game', gameId ? { username, gameId } : { username });
  return player;
}
