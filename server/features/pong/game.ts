/**
 * One Pong game, server-authoritative and deterministic: the same seed and the same inputs give
 * the same game. No clock, no timers, no I/O: `step()` advances 1/60 s and returns the moments
 * (glitch banners, the 'FREE YOUR MIND' animation) the players should see. The host calls it.
 *
 * Members: the first two to join take the left and right paddles, later joiners spectate and
 * move up, in order, when a side frees. A start with two players is multiplayer; with one it is
 * practice against the server's paddle (ai.ts). First to 10 wins (spec 001 §9).
 */
import { PONG } from '../../../shared/constants.js';
import { PONG_TEXT, type PongGameState, type PongSide } from '../../../shared/protocol/ws/pong.js';
import { aiTarget, aiOffset } from './ai.js';
import {
  ballSpeed,
  centreBall,
  clampPaddle,
  serveBall,
  stepBall,
  stepPaddle,
  type Ball,
  type Paddle,
} from './physics.js';
import {
  applyEffect,
  collectPowerUp,
  other,
  speedFactor,
  stepPowerUps,
  type Field,
} from './power-ups.js';
import type { RandomSource } from './random.js';
import { POWER_UP_MESSAGE, RULES, ticksToMs } from './rules.js';

export type GameStatus = PongGameState['gameStatus'];
export type GameMode = PongGameState['mode'];

export interface Player {
  /** The member's connection id: random, reveals nothing about the user. */
  id: string;
  username: string;
}

/** A moment the players see: a glitch banner, or the full-screen animation. */
export type GameMoment =
  { kind: 'glitch'; message: string; duration: number } | { kind: 'cyberpunk'; duration: number };

/** A frame refused by the rules; its message goes back to the sender as an error frame. */
export class PongRuleError extends Error {
  override readonly name = 'PongRuleError';
}

const newPaddle = (): Paddle => {
  const y = (PONG.canvasHeight - PONG.paddleHeight) / 2;
  return { y, size: PONG.paddleHeight, reversed: false, target: y };
};

export class PongGame {
  readonly players: Record<PongSide, Player | null> = { left: null, right: null };
  private readonly spectators = new Map<string, Player>();
  status: GameStatus = 'waiting';
  mode: GameMode = null;
  winner: PongSide | null = null;
  readonly scores: Record<PongSide, number> = { left: 0, right: 0 };
  private field: Field = freshField(0);
  private serveTicks = 0;
  private nextServe: PongSide = 'left';
  private glitchTicks = 0;
  private aiAim = 0;

  constructor(
    readonly id: string,
    private readonly random: RandomSource,
  ) {}

  get tick(): number {
    return this.field.tick;
  }

  /** Adds a member; returns its side, or null for a spectator. Joining twice changes nothing. */
  join(player: Player): PongSide | null {
    const existing = this.sideOf(player.id);
    if (existing !== undefined) return existing;
    const side = this.players.left === null ? 'left' : this.players.right === null ? 'right' : null;
    if (side === null) {
      this.spectators.set(player.id, player);
      return null;
    }
    this.players[side] = player;
    // A second player arriving during practice ends it: the two start a real game.
    if (this.mode === 'practice' && this.status !== 'finished') this.resetPlay();
    return side;
  }

  /** Removes a member; a freed side goes to the longest-waiting spectator. */
  leave(id: string): void {
    if (this.spectators.delete(id)) return;
    const side = this.sideOf(id);
    if (!side) return;
    this.players[side] = null;
    const [next] = this.spectators.values();
    if (next) {
      this.spectators.delete(next.id);
      this.players[side] = next;
    }
    if (this.players.left === null && this.players.right === null) return this.resetPlay();
    if (this.status !== 'playing') return;
    if (this.mode === 'practice') this.resetPlay();
    else this.status = 'paused';
  }

  /** The member's side, null for a spectator, undefined for a stranger. */
  sideOf(id: string): PongSide | null | undefined {
    if (this.players.left?.id === id) return 'left';
    if (this.players.right?.id === id) return 'right';
    return this.spectators.has(id) ? null : undefined;
  }

  memberCount(): number {
    return (this.players.left ? 1 : 0) + (this.players.right ? 1 : 0) + this.spectators.size;
  }

  /** start_game: starts, resumes a paused game, or restarts a finished one. */
  start(id: string): void {
    this.requirePlayer(id);
    if (this.status === 'playing') throw new PongRuleError(PONG_TEXT.alreadyPlaying);
    if (this.status === 'finished') this.resetPlay();
    const isFresh = this.status === 'waiting';
    this.mode = this.players.left && this.players.right ? 'multiplayer' : 'practice';
    this.status = 'playing';
    this.serveTicks = RULES.serveDelay;
    if (isFresh) this.nextServe = this.random() < 0.5 ? 'left' : 'right';
  }

  /** reset_game: back to waiting with the same members. */
  reset(id: string): void {
    this.requirePlayer(id);
    this.resetPlay();
  }

  /**
   * paddle_move: aims the member's own paddle at `y`, clamped to 0..(400 − height). While its
   * controls are reversed the aim is mirrored about the paddle. Returns the clamped aim.
   */
  move(id: string, side: PongSide, y: number): number {
    const own = this.requirePlayer(id);
    if (own !== side) throw new PongRuleError(PONG_TEXT.notYourPaddle);
    if (this.status !== 'playing') throw new PongRuleError(PONG_TEXT.notPlaying);
    const paddle = this.field.paddles[side];
    const aim = paddle.reversed ? paddle.y - (y - paddle.y) : y;
    paddle.target = clampPaddle(aim, paddle.size);
    return paddle.target;
  }

  /** Advances the game by one step (1/60 s); returns the moments to show. */
  step(): GameMoment[] {
    const field = this.field;
    field.tick += 1;
    if (this.status !== 'playing') return [];
    const moments: GameMoment[] = [];
    if (this.glitchTicks > 0) this.glitchTicks -= 1;

    const aiSide = this.aiSide();
    if (aiSide) field.paddles[aiSide].target = aiTarget(field, aiSide, this.aiAim);
    stepPaddle(field.paddles.left);
    stepPaddle(field.paddles.right);
    stepPowerUps(field, this.random);

    if (this.serveTicks > 0) {
      this.serveTicks -= 1;
      if (this.serveTicks > 0) return moments;
      if (field.ball.vx === 0 && field.ball.vy === 0)
        serveBall(field.ball, this.nextServe, this.random);
    }

    const factor = speedFactor(field);
    const main = stepBall(field.ball, factor, field.paddles);
    if (main.kind === 'hit' && aiSide && main.side !== aiSide)
      this.aiAim = aiOffset(this.random, field.paddles[aiSide].size);
    this.collect(field.ball, moments);
    for (const extra of [...field.balls]) {
      const outcome = stepBall(extra, factor, field.paddles);
      this.collect(extra, moments);
      if (outcome.kind !== 'goal') continue;
      field.balls.splice(field.balls.indexOf(extra), 1);
      this.score(outcome.scorer, moments);
      if (this.status !== 'playing') return moments;
    }
    if (main.kind === 'goal') {
      this.score(main.scorer, moments);
      if (this.status === 'playing') {
        centreBall(field.ball);
        this.nextServe = other(main.scorer);
        this.serveTicks = RULES.serveDelay;
      }
    }
    return moments;
  }

  /** The state as sent to clients, numbers rounded to 0.1 to keep frames small. */
  snapshot(): PongGameState {
    const field = this.field;
    const round = (value: number) => Math.round(value * 10) / 10;
    const ball = (value: Ball) => ({
      x: round(value.x),
      y: round(value.y),
      vx: round(value.vx),
      vy: round(value.vy),
    });
    const paddle = (value: Paddle) => ({
      y: round(value.y),
      size: value.size,
      reversed: value.reversed,
    });
    return {
      gameId: this.id,
      players: { left: this.players.left, right: this.players.right },
      spectators: this.spectators.size,
      gameStatus: this.status,
      mode: this.mode,
      winner: this.winner,
      scores: { ...this.scores },
      ball: { ...ball(field.ball), isGhost: field.ball.isGhost },
      balls: field.balls.map(ball),
      speed: round(ballSpeed(field.ball) * speedFactor(field)),
      paddles: { left: paddle(field.paddles.left), right: paddle(field.paddles.right) },
      powerUps: field.powerUps.map((powerUp) => ({
        id: powerUp.id,
        type: powerUp.type,
        x: powerUp.x,
        y: powerUp.y,
        created: ticksToMs(powerUp.createdTick),
      })),
      activeEffects: field.effects.map((effect) => ({
        type: effect.type,
        side: effect.side,
        remaining: ticksToMs(effect.remaining),
      })),
      glitchActive: this.glitchTicks > 0,
      tick: field.tick,
    };
  }

  /** For tests and the practice paddle: the live field. */
  get state(): Readonly<Field> {
    return this.field;
  }

  /** The side the server plays in practice mode, if any. */
  aiSide(): PongSide | null {
    if (this.mode !== 'practice') return null;
    if (!this.players.left) return 'left';
    if (!this.players.right) return 'right';
    return null;
  }

  private requirePlayer(id: string): PongSide {
    const side = this.sideOf(id);
    if (side === undefined) throw new PongRuleError(PONG_TEXT.joinFirst);
    if (side === null) throw new PongRuleError(PONG_TEXT.spectator);
    return side;
  }

  private collect(ball: Ball, moments: GameMoment[]): void {
    const powerUp = collectPowerUp(this.field, ball);
    if (!powerUp) return;
    applyEffect(this.field, powerUp.type, ball.vx > 0 ? 'left' : 'right');
    this.glitch(POWER_UP_MESSAGE[powerUp.type], moments);
  }

  private score(scorer: PongSide, moments: GameMoment[]): void {
    this.scores[scorer] += 1;
    if (this.scores[scorer] < PONG.winningScore) {
      this.glitch(`${scorer.toUpperCase()} PLAYER SCORES`, moments);
      return;
    }
    this.status = 'finished';
    this.winner = scorer;
    const tick = this.field.tick;
    this.field = freshField(tick);
    moments.push({ kind: 'cyberpunk', duration: PONG.cyberpunkAnimationMs });
  }

  private glitch(message: string, moments: GameMoment[]): void {
    this.glitchTicks = RULES.glitch;
    moments.push({ kind: 'glitch', message, duration: PONG.glitchMs });
  }

  private resetPlay(): void {
    this.status = 'waiting';
    this.mode = null;
    this.winner = null;
    this.scores.left = 0;
    this.scores.right = 0;
    this.field = freshField(this.field.tick);
    this.serveTicks = 0;
    this.glitchTicks = 0;
  }
}

function freshField(tick: number): Field {
  const ball = { x: 0, y: 0, vx: 0, vy: 0, isGhost: false };
  centreBall(ball);
  return {
    tick,
    ball,
    balls: [],
    paddles: { left: newPaddle(), right: newPaddle() },
    powerUps: [],
    effects: [],
    nextPowerUpId: 1,
    powerUpTimer: RULES.powerUpInterval,
  };
}
