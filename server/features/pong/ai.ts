/**
 * The server's paddle in practice mode. It follows the ball while the ball comes its way, aiming
 * a little off centre (a new random aim after every return by the player) so that a fast or
 * angled ball can beat it, and drifts back to the middle otherwise. It moves no faster than a
 * player's paddle (spec 001 §9 paddle speed 5).
 */
import { PONG } from '../../../shared/constants.js';
import type { PongSide } from '../../../shared/protocol/ws/pong.js';
import { clampPaddle } from './physics.js';
import type { Field } from './power-ups.js';
import type { RandomSource } from './random.js';
import { RULES } from './rules.js';

/** Where the practice paddle on `side` heads this step. */
export function aiTarget(field: Readonly<Field>, side: PongSide, aim: number): number {
  const paddle = field.paddles[side];
  const { ball } = field;
  const isComing = side === 'left' ? ball.vx < 0 : ball.vx > 0;
  const wanted = isComing ? ball.y - paddle.size / 2 + aim : (PONG.canvasHeight - paddle.size) / 2;
  return clampPaddle(wanted, paddle.size);
}

/** A fresh aim offset after the player returns the ball. */
export function aiOffset(random: RandomSource, paddleSize: number): number {
  return (random() * 2 - 1) * RULES.aiError * paddleSize;
}
