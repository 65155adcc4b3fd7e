/**
 * The Pong game logic with a fixed seed (spec 001 §3–§5, §9): bounces, scoring, the win at 10,
 * the paddle clamp, each power-up's effect and its end, the practice paddle, sides and the rules
 * that refuse out-of-turn frames.
 */
import { describe, expect, it } from 'vitest';
import { PONG } from '../../../shared/constants.js';
import { PONG_FIELD, PONG_TEXT, type PowerUpType } from '../../../shared/protocol/ws/pong.js';
import { PongGame, PongRuleError } from '../../../server/features/pong/game.js';
import {
  ballSpeed,
  PADDLE_FACE,
  stepBall,
  type Paddle,
} from '../../../server/features/pong/physics.js';
import { seededRandom } from '../../../server/features/pong/random.js';
import { EFFECT_DURATION, RULES } from '../../../server/features/pong/rules.js';

const paddleAt = (y: number, size = PONG.paddleHeight): Paddle => ({
  y,
  size,
  reversed: false,
  target: y,
});
const alice = { id: 'node_alice', username: 'alice' };
const bob = { id: 'node_bob', username: 'bob' };

function playingGame(seed = 7): PongGame {
  const game = new PongGame('test', seededRandom(seed));
  game.join(alice);
  game.join(bob);
  game.start(alice.id);
  for (let step = 0; step < RULES.serveDelay; step += 1) game.step();
  return game;
}

/** Puts the ball somewhere with a velocity (the game's field objects are live). */
function placeBall(game: PongGame, x: number, y: number, vx: number, vy: number): void {
  Object.assign(game.state.ball, { x, y, vx, vy });
}

describe('ball physics', () => {
  it('bounces off the top and bottom walls', () => {
    const paddles = { left: paddleAt(0), right: paddleAt(0) };
    const ball = { x: 400, y: 6, vx: 2, vy: -4 };
    stepBall(ball, 1, paddles);
    expect(ball.vy).toBe(4);
    expect(ball.y).toBeGreaterThanOrEqual(PONG.ballSize / 2);
    const low = { x: 400, y: 394, vx: 2, vy: 4 };
    stepBall(low, 1, paddles);
    expect(low.vy).toBe(-4);
    expect(low.y).toBeLessThanOrEqual(PONG.canvasHeight - PONG.ballSize / 2);
  });

  it('bounces off a paddle, faster, at an angle set by where the paddle was hit', () => {
    const paddles = { left: paddleAt(160), right: paddleAt(160) };
    const centre = { x: PADDLE_FACE.left + 6, y: 200, vx: -4, vy: 0 };
    expect(stepBall(centre, 1, paddles)).toEqual({ kind: 'hit', side: 'left' });
    expect(centre.vx).toBeCloseTo(4 * RULES.speedUp);
    expect(centre.vy).toBeCloseTo(0);
    const edge = { x: PADDLE_FACE.right - 6, y: 236, vx: 4, vy: 0 };
    expect(stepBall(edge, 1, paddles)).toEqual({ kind: 'hit', side: 'right' });
    expect(edge.vx).toBeLessThan(0);
    expect(edge.vy).toBeGreaterThan(1);
  });

  it('never passes through a paddle at top speed and never exceeds it', () => {
    const paddles = { left: paddleAt(160), right: paddleAt(160) };
    const ball = { x: PADDLE_FACE.left + 9, y: 200, vx: -RULES.maxBallSpeed, vy: 0 };
    expect(stepBall(ball, 1, paddles).kind).toBe('hit');
    expect(ballSpeed(ball)).toBeCloseTo(RULES.maxBallSpeed);
  });

  it('scores for the other side when a ball passes a goal line', () => {
    const paddles = { left: paddleAt(0), right: paddleAt(0) };
    const ball = { x: 5, y: 300, vx: -12, vy: 0 };
    let outcome = stepBall(ball, 1, paddles);
    while (outcome.kind === 'none') outcome = stepBall(ball, 1, paddles);
    expect(outcome).toEqual({ kind: 'goal', scorer: 'right' });
  });
});

describe('a game', () => {
  it('is the same game for the same seed and inputs', () => {
    const one = playingGame(42);
    const two = playingGame(42);
    for (let step = 0; step < 3000; step += 1) {
      one.step();
      two.step();
    }
    expect(one.snapshot()).toEqual(two.snapshot());
  });

  it('gives a point, a glitch banner and a new serve towards the side that conceded', () => {
    const game = playingGame();
    game.move(alice.id, 'left', 320);
    for (let step = 0; step < 40; step += 1) game.step();
    placeBall(game, 60, 40, -8, 0);
    const moments = [];
    while (game.scores.right === 0) moments.push(...game.step());
    expect(game.scores).toEqual({ left: 0, right: 1 });
    expect(moments).toContainEqual({
      kind: 'glitch',
      message: 'RIGHT PLAYER SCORES',
      duration: 1500,
    });
    expect(game.snapshot().ball).toMatchObject({ x: 400, y: 200, vx: 0, vy: 0 });
    for (let step = 0; step < RULES.serveDelay; step += 1) game.step();
    expect(game.state.ball.vx).toBeLessThan(0);
    expect(ballSpeed(game.state.ball)).toBeCloseTo(PONG.initialBallSpeed);
  });

  it('is won by the first to 10, with the FREE YOUR MIND animation', () => {
    const game = playingGame();
    game.scores.left = 9;
    game.move(bob.id, 'right', 0);
    for (let step = 0; step < 40; step += 1) game.step();
    placeBall(game, 700, 380, 8, 0);
    const moments = [];
    while (game.status === 'playing') moments.push(...game.step());
    expect(game.status).toBe('finished');
    expect(game.winner).toBe('left');
    expect(game.snapshot().scores).toEqual({ left: 10, right: 0 });
    expect(moments).toContainEqual({ kind: 'cyberpunk', duration: 3000 });
    expect(() => game.move(alice.id, 'left', 10)).toThrow(PONG_TEXT.notPlaying);
    game.start(bob.id);
    expect(game.snapshot()).toMatchObject({
      gameStatus: 'playing',
      scores: { left: 0, right: 0 },
      winner: null,
    });
  });

  it('clamps a paddle to 0..(400 − height) and moves it 5 per step', () => {
    const game = playingGame();
    expect(game.move(alice.id, 'left', 400)).toBe(PONG.canvasHeight - PONG.paddleHeight);
    const before = game.state.paddles.left.y;
    game.step();
    expect(game.state.paddles.left.y - before).toBe(PONG.paddleSpeed);
    expect(game.move(alice.id, 'left', 0)).toBe(0);
    for (let step = 0; step < 100; step += 1) game.step();
    expect(game.snapshot().paddles.left.y).toBe(0);
  });

  it('lets a player move only its own paddle, and only while the game runs', () => {
    const game = new PongGame('rules', seededRandom(1));
    expect(game.join(alice)).toBe('left');
    expect(game.join(bob)).toBe('right');
    expect(game.join({ id: 'node_carol', username: 'carol' })).toBeNull();
    expect(() => game.move(alice.id, 'left', 100)).toThrow(PONG_TEXT.notPlaying);
    expect(() => game.start('node_carol')).toThrow(PONG_TEXT.spectator);
    expect(() => game.start('node_stranger')).toThrow(PONG_TEXT.joinFirst);
    game.start(alice.id);
    expect(game.mode).toBe('multiplayer');
    expect(() => game.start(bob.id)).toThrow(PongRuleError);
    expect(() => game.move(alice.id, 'right', 100)).toThrow(PONG_TEXT.notYourPaddle);
    expect(game.state.paddles.right.target).toBe(160);
  });

  it('pauses when a player leaves a multiplayer game and gives the side to a spectator', () => {
    const game = playingGame();
    game.join({ id: 'node_carol', username: 'carol' });
    game.leave(bob.id);
    expect(game.status).toBe('paused');
    expect(game.players.right?.username).toBe('carol');
    game.start('node_carol');
    expect(game.status).toBe('playing');
  });
});

describe('power-ups', () => {
  /** Collects a power-up of `type` by the left paddle (the ball moves right). */
  function collect(type: PowerUpType) {
    const game = playingGame(3);
    placeBall(game, 300, 200, 4, 0);
    game.state.powerUps.push({ id: 99, type, x: 304, y: 200, createdTick: game.tick });
    const moments = game.step();
    return { game, moments };
  }

  /** Steps until the effect's duration has passed. */
  function outlast(game: PongGame, type: PowerUpType) {
    for (let step = 0; step < EFFECT_DURATION[type]; step += 1) {
      game.step();
      if (game.status !== 'playing') throw new Error('game ended first');
    }
    expect(game.snapshot().activeEffects.some((effect) => effect.type === type)).toBe(false);
  }

  it('appear on the field while a game runs and vanish when nobody collects them', () => {
    const game = playingGame(11);
    let seen = 0;
    for (let step = 0; step < RULES.powerUpInterval * 3; step += 1) {
      game.step();
      seen = Math.max(seen, game.snapshot().powerUps.length);
    }
    expect(seen).toBeGreaterThan(0);
    expect(seen).toBeLessThanOrEqual(RULES.maxPowerUpsOnField);
  });

  it('speed_boost makes the ball 1.5× faster until it ends', () => {
    const { game, moments } = collect('speed_boost');
    expect(moments).toContainEqual({
      kind: 'glitch',
      message: 'SPEED BOOST // VELOCITY OVERRIDE',
      duration: 1500,
    });
    const state = game.snapshot();
    expect(state.glitchActive).toBe(true);
    expect(state.activeEffects).toEqual([{ type: 'speed_boost', side: null, remaining: 5000 }]);
    expect(state.speed).toBeCloseTo(ballSpeed(game.state.ball) * 1.5, 1);
    outlast(game, 'speed_boost');
    expect(game.snapshot().speed).toBeCloseTo(ballSpeed(game.state.ball), 1);
  });

  it('paddle_size grows the collector paddle to 120 until it ends', () => {
    const { game } = collect('paddle_size');
    expect(game.snapshot().paddles.left.size).toBe(PONG_FIELD.boostedPaddleHeight);
    expect(game.snapshot().paddles.right.size).toBe(PONG.paddleHeight);
    expect(game.move(alice.id, 'left', 400)).toBe(
      PONG.canvasHeight - PONG_FIELD.boostedPaddleHeight,
    );
    outlast(game, 'paddle_size');
    expect(game.snapshot().paddles.left.size).toBe(PONG.paddleHeight);
    expect(game.state.paddles.left.y).toBeLessThanOrEqual(PONG.canvasHeight - PONG.paddleHeight);
  });

  it('multi_ball splits off two extra balls until it ends', () => {
    const { game } = collect('multi_ball');
    expect(game.snapshot().balls).toHaveLength(2);
    const before = game.scores.left + game.scores.right;
    outlast(game, 'multi_ball');
    expect(game.snapshot().balls).toHaveLength(0);
    expect(game.scores.left + game.scores.right).toBeGreaterThanOrEqual(before);
  });

  it('reverse_controls mirrors the opponent paddle input until it ends', () => {
    const { game } = collect('reverse_controls');
    expect(game.snapshot().paddles.right.reversed).toBe(true);
    expect(game.snapshot().paddles.left.reversed).toBe(false);
    const y = game.state.paddles.right.y;
    expect(game.move(bob.id, 'right', y + 50)).toBe(y - 50);
    outlast(game, 'reverse_controls');
    expect(game.snapshot().paddles.right.reversed).toBe(false);
    const now = game.state.paddles.right.y;
    expect(game.move(bob.id, 'right', now + 10)).toBe(Math.min(now + 10, 320));
  });

  it('ghost_ball makes the ball a ghost until it ends', () => {
    const { game } = collect('ghost_ball');
    expect(game.snapshot().ball.isGhost).toBe(true);
    outlast(game, 'ghost_ball');
    expect(game.snapshot().ball.isGhost).toBe(false);
  });
});

describe('practice mode', () => {
  it('puts the server paddle on the empty side, tracking the ball coming its way', () => {
    const game = new PongGame('practice', seededRandom(5));
    game.join(alice);
    game.start(alice.id);
    expect(game.mode).toBe('practice');
    expect(game.aiSide()).toBe('right');
    for (let step = 0; step < RULES.serveDelay; step += 1) game.step();
    placeBall(game, 400, 40, 4, 0);
    const distance = () => Math.abs(game.state.paddles.right.y + 40 - game.state.ball.y);
    const before = distance();
    for (let step = 0; step < 20; step += 1) game.step();
    expect(distance()).toBeLessThan(before - 60);
    // A ball going away: the paddle drifts back to the middle.
    placeBall(game, 400, 40, -4, 0);
    for (let step = 0; step < 60; step += 1) game.step();
    expect(game.state.paddles.right.y).toBe(160);
  });

  it('ends when a second player joins: the two start a real game', () => {
    const game = new PongGame('practice', seededRandom(5));
    game.join(alice);
    game.start(alice.id);
    game.join(bob);
    expect(game.snapshot()).toMatchObject({ gameStatus: 'waiting', mode: null });
    game.start(bob.id);
    expect(game.mode).toBe('multiplayer');
  });
});
