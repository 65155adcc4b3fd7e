/**
 * Power-ups (spec 001 §2): glyphs that appear on the field and, when a ball runs over one, give
 * the side that last hit that ball an effect for a while. Each effect is visible in the state:
 *   speed_boost       every ball moves 1.5× faster (the speed bar shows it)
 *   paddle_size       the collector's paddle grows from 80 to 120
 *   multi_ball        two extra balls split off the ball; each scores like the ball
 *   reverse_controls  the opponent's paddle moves opposite to its input (`reversed`)
 *   ghost_ball        the ball is drawn as a ghost (`isGhost`)
 */
import { PONG } from '../../../shared/constants.js';
import {
  PONG_FIELD,
  POWER_UP_TYPES,
  type PongSide,
  type PowerUpType,
} from '../../../shared/protocol/ws/pong.js';
import { clampPaddle, type Ball, type Paddle } from './physics.js';
import type { RandomSource } from './random.js';
import { EFFECT_DURATION, RULES } from './rules.js';

export interface PowerUp {
  id: number;
  type: PowerUpType;
  x: number;
  y: number;
  /** Step at which it appeared. */
  createdTick: number;
}

export interface Effect {
  type: PowerUpType;
  /** The paddle it acts on; null for effects on the ball. */
  side: PongSide | null;
  remaining: number;
}

/** What power-ups act on: part of a game's state. */
export interface Field {
  tick: number;
  ball: Ball & { isGhost: boolean };
  balls: Ball[];
  paddles: Record<PongSide, Paddle>;
  powerUps: PowerUp[];
  effects: Effect[];
  nextPowerUpId: number;
  powerUpTimer: number;
}

export const other = (side: PongSide): PongSide => (side === 'left' ? 'right' : 'left');

/** Places a random power-up in the middle of the field. */
export function spawnPowerUp(field: Field, random: RandomSource): PowerUp {
  const type = POWER_UP_TYPES[Math.floor(random() * POWER_UP_TYPES.length)] ?? 'speed_boost';
  const powerUp: PowerUp = {
    id: field.nextPowerUpId++,
    type,
    x: Math.round(PONG.canvasWidth * (0.25 + random() * 0.5)),
    y: Math.round(40 + random() * (PONG.canvasHeight - 80)),
    createdTick: field.tick,
  };
  field.powerUps.push(powerUp);
  return powerUp;
}

/** The power-up `ball` runs over this step, removed from the field, or null. */
export function collectPowerUp(field: Field, ball: Ball): PowerUp | null {
  const reach = PONG_FIELD.powerUpRadius + PONG.ballSize / 2;
  const index = field.powerUps.findIndex(
    (powerUp) => Math.hypot(powerUp.x - ball.x, powerUp.y - ball.y) <= reach,
  );
  if (index < 0) return null;
  const [powerUp] = field.powerUps.splice(index, 1);
  return powerUp ?? null;
}

/** Starts (or restarts) the effect of `type` for `collector`. */
export function applyEffect(field: Field, type: PowerUpType, collector: PongSide): void {
  const side =
    type === 'paddle_size' ? collector : type === 'reverse_controls' ? other(collector) : null;
  const existing = field.effects.find((effect) => effect.type === type && effect.side === side);
  if (existing) existing.remaining = EFFECT_DURATION[type];
  else field.effects.push({ type, side, remaining: EFFECT_DURATION[type] });

  switch (type) {
    case 'paddle_size': {
      const paddle = field.paddles[collector];
      paddle.size = PONG_FIELD.boostedPaddleHeight;
      paddle.y = clampPaddle(paddle.y - (paddle.size - PONG.paddleHeight) / 2, paddle.size);
      paddle.target = clampPaddle(paddle.target, paddle.size);
      break;
    }
    case 'multi_ball': {
      const { ball } = field;
      for (const turn of [-0.35, 0.35]) {
        const cos = Math.cos(turn);
        const sin = Math.sin(turn);
        field.balls.push({
          x: ball.x,
          y: ball.y,
          vx: ball.vx * cos - ball.vy * sin,
          vy: ball.vx * sin + ball.vy * cos,
        });
      }
      break;
    }
    case 'reverse_controls':
      field.paddles[other(collector)].reversed = true;
      break;
    case 'ghost_ball':
      field.ball.isGhost = true;
      break;
    case 'speed_boost':
      break;
  }
}

/** Ends an effect, undoing what it changed. */
export function endEffect(field: Field, effect: Effect): void {
  switch (effect.type) {
    case 'paddle_size': {
      const paddle = field.paddles[effect.side ?? 'left'];
      paddle.size = PONG.paddleHeight;
      paddle.y = clampPaddle(
        paddle.y + (PONG_FIELD.boostedPaddleHeight - PONG.paddleHeight) / 2,
        paddle.size,
      );
      paddle.target = clampPaddle(paddle.target, paddle.size);
      break;
    }
    case 'multi_ball':
      field.balls.length = 0;
      break;
    case 'reverse_controls':
      field.paddles[effect.side ?? 'left'].reversed = false;
      break;
    case 'ghost_ball':
      field.ball.isGhost = false;
      break;
    case 'speed_boost':
      break;
  }
}

/** One step of power-up time: effects run out, old glyphs vanish, new ones appear. */
export function stepPowerUps(field: Field, random: RandomSource): void {
  for (const effect of [...field.effects]) {
    effect.remaining -= 1;
    if (effect.remaining > 0) continue;
    field.effects.splice(field.effects.indexOf(effect), 1);
    endEffect(field, effect);
  }
  field.powerUps = field.powerUps.filter(
    (powerUp) => field.tick - powerUp.createdTick < RULES.powerUpLifetime,
  );
  field.powerUpTimer -= 1;
  if (field.powerUpTimer > 0) return;
  field.powerUpTimer = RULES.powerUpInterval;
  if (field.powerUps.length < RULES.maxPowerUpsOnField) spawnPowerUp(field, random);
}

/** The ball speed factor of the effects in force. */
export function speedFactor(field: Field): number {
  return field.effects.some((effect) => effect.type === 'speed_boost') ? RULES.speedBoostFactor : 1;
}
