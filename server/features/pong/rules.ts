/**
 * The game's tuning. Spec 001 §9 fixes the sizes, speeds and the winning score (shared/constants.ts
 * PONG); what it leaves open (durations, spawn rates, speed-up) is decided here and listed in
 * docs/decisions.md. Durations are in simulation steps of 1/60 s.
 */
import { PONG } from '../../../shared/constants.js';
import { PONG_FIELD, type PowerUpType } from '../../../shared/protocol/ws/pong.js';

const SECOND = PONG_FIELD.tickRate;

export const RULES = {
  /** Steps the ball rests in the centre before a serve. */
  serveDelay: SECOND,
  /** Each paddle hit multiplies the ball speed by this, up to {@link RULES.maxBallSpeed}. */
  speedUp: 1.05,
  /** The speed bar's full scale (spec 001 §9) is also the ball's top speed. */
  maxBallSpeed: PONG.speedBarScale,
  /** Largest bounce angle off a paddle edge, from the horizontal. */
  maxBounceAngle: Math.PI / 3,
  /** Largest serve angle from the horizontal. */
  maxServeAngle: Math.PI / 6,
  /** A power-up appears this often while a game runs, while fewer than two are on the field. */
  powerUpInterval: 6 * SECOND,
  /** A power-up nobody collects disappears after this. */
  powerUpLifetime: 10 * SECOND,
  maxPowerUpsOnField: 2,
  /** `speed_boost` multiplies the ball's speed by this while it lasts. */
  speedBoostFactor: 1.5,
  /** How far off the ball the practice paddle aims, at most, as a share of its height. */
  aiError: 0.45,
  /** Glitch banner and `glitchActive` length (spec 001 §9 "glitch default 1500 ms"). */
  glitch: Math.round((PONG.glitchMs / 1000) * SECOND),
} as const;

/** How long each power-up's effect lasts. */
export const EFFECT_DURATION: Record<PowerUpType, number> = {
  speed_boost: 5 * SECOND,
  paddle_size: 10 * SECOND,
  multi_ball: 8 * SECOND,
  reverse_controls: 5 * SECOND,
  ghost_ball: 4 * SECOND,
};

/** The banner shown when a power-up is collected. */
export const POWER_UP_MESSAGE: Record<PowerUpType, string> = {
  speed_boost: 'SPEED BOOST // VELOCITY OVERRIDE',
  paddle_size: 'PADDLE SIZE // BARRIER EXPANDED',
  multi_ball: 'MULTI BALL // REALITY FORKED',
  reverse_controls: 'REVERSE CONTROLS // INPUT INVERTED',
  ghost_ball: 'GHOST BALL // SIGNAL LOST',
};

/** Milliseconds of a number of steps. */
export function ticksToMs(ticks: number): number {
  return Math.round((ticks * 1000) / SECOND);
}
