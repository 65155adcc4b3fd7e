/**
 * What the processes of one game say to each other (through the fan-out: in-process, or Redis
 * pub/sub with REDIS_URL). Members' processes send inputs on `pong-in:{gameId}`; the hosting
 * process answers on `pong-out:{gameId}`:
 *
 *   state   `S|{leftMemberId}|{rightMemberId}|{timestamp}|{gameState JSON}`: the JSON is made once
 *           and each process splices it into per-side `game_state` frames without parsing it
 *   other   JSON: a frame for every member, an error for one member, or the end of the game
 */
import { z } from 'zod';
import { PongSideSchema } from '../../../shared/protocol/ws/pong.js';

export const inChannel = (gameId: string) => `pong-in:${gameId}`;
export const outChannel = (gameId: string) => `pong-out:${gameId}`;

const member = z.string().max(64);
const frameType = z.enum(['join_game', 'paddle_move', 'start_game', 'reset_game']);

/** An input from a member's process to the host. */
export const GameInputSchema = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('join'),
    member,
    processId: z.string().max(64),
    username: z.string().max(64),
  }),
  z.object({ op: z.literal('leave'), member }),
  z.object({ op: z.literal('move'), member, side: PongSideSchema, y: z.number().finite() }),
  z.object({ op: z.literal('start'), member }),
  z.object({ op: z.literal('reset'), member }),
]);
export type GameInput = z.infer<typeof GameInputSchema>;

/** A non-state output from the host. */
export const GameOutputSchema = z.discriminatedUnion('k', [
  z.object({ k: z.literal('frame'), frame: z.string() }),
  z.object({ k: z.literal('error'), member, message: z.string(), frameType }),
  z.object({ k: z.literal('ended'), message: z.string() }),
]);
export type GameOutput = z.infer<typeof GameOutputSchema>;

export const FRAME_TYPE_OF_OP = {
  join: 'join_game',
  leave: 'join_game',
  move: 'paddle_move',
  start: 'start_game',
  reset: 'reset_game',
} as const;

/** The state message of a game. */
export function encodeState(
  left: string | null,
  right: string | null,
  timestamp: number,
  stateJson: string,
): string {
  return `S|${left ?? ''}|${right ?? ''}|${timestamp}|${stateJson}`;
}

/** Splits a state message; null when `payload` is not one. */
export function decodeState(
  payload: string,
): { left: string; right: string; timestamp: string; stateJson: string } | null {
  if (!payload.startsWith('S|')) return null;
  const first = payload.indexOf('|', 2);
  const second = payload.indexOf('|', first + 1);
  const third = payload.indexOf('|', second + 1);
  if (first < 0 || second < 0 || third < 0) return null;
  return {
    left: payload.slice(2, first),
    right: payload.slice(first + 1, second),
    timestamp: payload.slice(second + 1, third),
    stateJson: payload.slice(third + 1),
  };
}
