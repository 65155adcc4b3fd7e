/** Pong frames, wrapped as `{type, data, timestamp}` (spec 001 §7 "Pong WebSocket"). */
import { z } from 'zod';
import { displayNameSchema } from '../text.js';

const timestamp = z.number().int().nonnegative().optional();
const side = z.enum(['left', 'right']);

export const JoinGameFrameSchema = z.strictObject({
  type: z.literal('join_game'),
  data: z.strictObject({ username: displayNameSchema({ label: 'username', max: 64 }) }),
  timestamp,
});
export const PaddleMoveFrameSchema = z.strictObject({
  type: z.literal('paddle_move'),
  data: z.strictObject({ side, y: z.number().finite() }),
  timestamp,
});
export const GameControlFrameSchema = z.strictObject({
  type: z.enum(['start_game', 'reset_game']),
  data: z.strictObject({}).optional(),
  timestamp,
});
