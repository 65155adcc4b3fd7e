/**
 * The Pong screen's connection and game state: the socket (pong-socket.ts), the latest state for
 * the panel, the interpolator the canvas draws from, and the transient moments (glitch banners,
 * the FREE YOUR MIND effect) with their durations.
 */
import { useCallback, useEffect, useState } from 'react';
import type { PongGameState, PongServerFrame, PongSide } from '../../../shared/protocol/ws/pong.js';
import { openBrowserSocket } from '../../lib/realtime/websocket-like.js';
import { waitForServerTrust } from '../../lib/privacy/server-trust.js';
import { Interpolator } from './interpolation.js';
import { PongSocket, pongSocketUrl, type PongConnectionStatus } from './pong-socket.js';

export interface GlitchBanner {
  id: number;
  message: string;
}

export interface PongGameView {
  connection: PongConnectionStatus;
  state: PongGameState | null;
  playerSide: PongSide | null;
  glitches: GlitchBanner[];
  isFreeMind: boolean;
  interpolator: Interpolator;
  sendMove: (side: PongSide, y: number) => void;
  start: () => void;
  reset: () => void;
}

export function usePongGame(sessionToken: string, username: string, gameId: string): PongGameView {
  const [connection, setConnection] = useState<PongConnectionStatus>('connecting');
  const [state, setState] = useState<PongGameState | null>(null);
  const [playerSide, setPlayerSide] = useState<PongSide | null>(null);
  const [glitches, setGlitches] = useState<GlitchBanner[]>([]);
  const [isFreeMind, setIsFreeMind] = useState(false);
  const [interpolator] = useState(() => new Interpolator());
  // The live socket, set by the effect; callbacks read it when called, never during render.
  const [link] = useState(() => new SocketLink());

  useEffect(() => {
    let nextGlitch = 1;
    const timers = new Set<ReturnType<typeof setTimeout>>();
    const later = (callback: () => void, ms: number) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        callback();
      }, ms);
      timers.add(timer);
    };
    const onFrame = (frame: PongServerFrame) => {
      switch (frame.type) {
        case 'game_state':
          interpolator.push(frame.data.gameState, performance.now());
          setState(frame.data.gameState);
          setPlayerSide(frame.data.playerSide);
          break;
        case 'glitch_effect': {
          const id = nextGlitch++;
          setGlitches((current) => [...current.slice(-2), { id, message: frame.data.message }]);
          later(
            () => setGlitches((current) => current.filter((banner) => banner.id !== id)),
            frame.data.duration,
          );
          break;
        }
        case 'cyberpunk_animation':
          setIsFreeMind(true);
          later(() => setIsFreeMind(false), frame.data.duration);
          break;
        default:
          break;
      }
    };
    const socket = new PongSocket({
      url: pongSocketUrl(window.location),
      sessionToken,
      username,
      gameId,
      open: openBrowserSocket,
      onFrame,
      onStatus: setConnection,
      // eslint-disable-next-line no-console -- spec 001 §8: Pong server errors are only logged
      log: (message) => console.warn(message),
    });
    link.attach(socket);
    // The session token goes out only once the server's identity check has passed.
    let isCancelled = false;
    void waitForServerTrust().then((isTrusted) => {
      if (isTrusted && !isCancelled) socket.start();
    });
    return () => {
      isCancelled = true;
      socket.stop();
      link.attach(null);
      for (const timer of timers) clearTimeout(timer);
    };
  }, [sessionToken, username, gameId, interpolator, link]);

  const sendMove = useCallback(
    (side: PongSide, y: number) => link.socket?.send('paddle_move', { side, y }),
    [link],
  );
  const start = useCallback(() => link.socket?.send('start_game'), [link]);
  const reset = useCallback(() => link.socket?.send('reset_game'), [link]);
  return {
    connection,
    state,
    playerSide,
    glitches,
    isFreeMind,
    interpolator,
    sendMove,
    start,
    reset,
  };
}

/** Holds the live socket for callbacks made after render. */
class SocketLink {
  socket: PongSocket | null = null;

  attach(socket: PongSocket | null): void {
    this.socket = socket;
  }
}
