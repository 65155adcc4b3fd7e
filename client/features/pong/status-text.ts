/** The game status line, exactly as spec 001 §4 gives it. */
import type { PongGameState } from '../../../shared/protocol/ws/pong.js';

export function statusText(state: PongGameState | null): string {
  if (!state) return 'Ready for practice mode or multiplayer';
  const players = (state.players.left ? 1 : 0) + (state.players.right ? 1 : 0);
  switch (state.gameStatus) {
    case 'waiting':
      if (players === 0) return 'Ready for practice mode or multiplayer';
      if (players === 1) return 'Practice mode ready (1/2 players)';
      return 'Ready for multiplayer (2/2 players)';
    case 'playing':
      return state.mode === 'practice' ? 'Practice mode active' : 'Multiplayer game in progress';
    case 'paused':
      return 'Game paused';
    case 'finished':
      return `Game finished! ${state.winner === 'right' ? 'Right' : 'Left'} player wins!`;
    default:
      return 'Unknown status';
  }
}
