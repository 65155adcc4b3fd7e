/**
 * Ball physics, pure functions over plain objects: wall bounces, paddle bounces with the bounce
 * angle set by where the paddle was hit, speed-up, and the goal lines. Coordinates are those of the
 * 800×400 canvas (spec 001 §9); a ball's `x`, `y` is its centre, a paddle's `y` its top edge.
 */
import { PONG } from '../../../shared/constants.js';
import { PONG_FIELD, type PongSide } from '../../../shared/protocol/ws/pong.js';
import { RULES } from './rules.js';
import type { RandomSource } from './random.js';

export interface Ball {
  x: number;
  y: number;
  vx: number;
  vy: number;
}

export interface Paddle {
  y: number;
  size: number;
  reversed: boolean;
  /** Where the paddle is heading; it moves at most the paddle speed per step. */
  target: number;
}

const HALF_BALL = PONG.ballSize / 2;
/** x of the face of each paddle, the side the ball bounces off. */
export const PADDLE_FACE = {
  left: PONG_FIELD.paddleMargin + PONG.paddleWidth,
  right: PONG.canvasWidth - PONG_FIELD.paddleMargin - PONG.paddleWidth,
} as const;

export function centreBall(ball: Ball): void {
  ball.x = PONG.canvasWidth / 2;
  ball.y = PONG.canvasHeight / 2;
  ball.vx = 0;
  ball.vy = 0;
}

/** Sends a resting ball towards `side` at the initial speed, at a random angle. */
export function serveBall(ball: Ball, side: PongSide, random: RandomSource): void {
  const angle = (random() * 2 - 1) * RULES.maxServeAngle;
  const direction = side === 'left' ? -1 : 1;
  ball.vx = direction * PONG.initialBallSpeed * Math.cos(angle);
  ball.vy = PONG.initialBallSpeed * Math.sin(angle);
}

export function ballSpeed(ball: Ball): number {
  return Math.hypot(ball.vx, ball.vy);
}

/** The highest top edge a paddle of `size` may have (spec 001 §5: 0..(400 − height)). */
export function clampPaddle(y: number, size: number): number {
  return Math.min(Math.max(y, 0), PONG.canvasHeight - size);
}

/** Moves a paddle one step towards its target, at most the paddle speed (spec 001 §9). */
export function stepPaddle(paddle: Paddle): void {
  const delta = paddle.target - paddle.y;
  const step = Math.min(Math.abs(delta), PONG.paddleSpeed);
  paddle.y = clampPaddle(paddle.y + Math.sign(delta) * step, paddle.size);
}

export type BallOutcome =
  { kind: 'none' } | { kind: 'hit'; side: PongSide } | { kind: 'goal'; scorer: PongSide };

/**
 * Advances one ball by one step, `factor` times its velocity. Crossing a paddle face is checked
 * along the path, so even a ball at top speed cannot pass through a paddle between two steps.
 */
export function stepBall(
  ball: Ball,
  factor: number,
  paddles: Record<PongSide, Paddle>,
): BallOutcome {
  const fromX = ball.x;
  const fromY = ball.y;
  ball.x += ball.vx * factor;
  ball.y += ball.vy * factor;
  bounceOffWalls(ball);

  if (ball.vx < 0) {
    const face = PADDLE_FACE.left;
    if (fromX - HALF_BALL >= face && ball.x - HALF_BALL < face) {
      if (bounceOffPaddle(ball, fromX, fromY, face + HALF_BALL, paddles.left, 1)) {
        return { kind: 'hit', side: 'left' };
      }
    }
  } else if (ball.vx > 0) {
    const face = PADDLE_FACE.right;
    if (fromX + HALF_BALL <= face && ball.x + HALF_BALL > face) {
      if (bounceOffPaddle(ball, fromX, fromY, face - HALF_BALL, paddles.right, -1)) {
        return { kind: 'hit', side: 'right' };
      }
    }
  }
  if (ball.x + HALF_BALL < 0) return { kind: 'goal', scorer: 'right' };
  if (ball.x - HALF_BALL > PONG.canvasWidth) return { kind: 'goal', scorer: 'left' };
  return { kind: 'none' };
}

function bounceOffWalls(ball: Ball): void {
  if (ball.y - HALF_BALL < 0) {
    ball.y = 2 * HALF_BALL - ball.y;
    ball.vy = Math.abs(ball.vy);
  } else if (ball.y + HALF_BALL > PONG.canvasHeight) {
    ball.y = 2 * (PONG.canvasHeight - HALF_BALL) - ball.y;
    ball.vy = -Math.abs(ball.vy);
  }
}

/** Bounces the ball if the paddle covers it where it crosses `contactX`; true when it did. */
function bounceOffPaddle(
  ball: Ball,
  fromX: number,
  fromY: number,
  contactX: number,
  paddle: Paddle,
  direction: 1 | -1,
): boolean {
  const share = (fromX - contactX) / (fromX - ball.x);
  const contactY = Math.min(
    Math.max(fromY + (ball.y - fromY) * share, HALF_BALL),
    PONG.canvasHeight - HALF_BALL,
  );
  if (contactY + HALF_BALL < paddle.y || contactY - HALF_BALL > paddle.y + paddle.size)
    return false;
  const offset = (contactY - (paddle.y + paddle.size / 2)) / (paddle.size / 2 + HALF_BALL);
  const angle = Math.max(-1, Math.min(1, offset)) * RULES.maxBounceAngle;
  const speed = Math.min(ballSpeed(ball) * RULES.speedUp, RULES.maxBallSpeed);
  ball.vx = direction * speed * Math.cos(angle);
  ball.vy = speed * Math.sin(angle);
  ball.x = contactX;
  ball.y = contactY;
  return true;
}
