/**
 * Pong frames, wrapped as `{type, data, timestamp}` (spec 001 §7 "Pong WebSocket"), and the game
 * state the server sends (spec 001 §3 "Pong game state"; its exact shape is "not shown", so this
 * file is where it is decided, see docs/protocol.md).
 */
import { z } from 'zod';
import { PONG } from '../../constants.js';
import { displayNameSchema } from '../text.js';

const timestamp = z.number().int().nonnegative().optional();

/** A paddle's side. */
export const PongSideSchema = z.enum(['left', 'right']);
export type PongSide = z.infer<typeof PongSideSchema>;

/** The five power-ups of spec 001 §2. */
export const POWER_UP_TYPES = [
  'speed_boost',
  'paddle_size',
  'multi_ball',
  'reverse_controls',
  'ghost_ball',
] as const;
export const PowerUpTypeSchema = z.enum(POWER_UP_TYPES);
export type PowerUpType = z.infer<typeof PowerUpTypeSchema>;

/**
 * A game's name: the default lobby, or a shared game named in the `/pong?game=` link. Lowercase
 * letters, digits and dashes only, so it is safe in a URL and in a Redis channel name.
 */
export const GameIdSchema = z.string().regex(/^[a-z0-9-]{1,32}$/);
/** The game a `join_game` without `gameId` joins. */
export const DEFAULT_GAME_ID = 'lobby';

/** Field geometry the specs leave open (spec 001 §9 gives the canvas, paddle and ball sizes). */
export const PONG_FIELD = {
  /** Gap between a paddle and its goal line. */
  paddleMargin: 20,
  /** Paddle height while `paddle_size` is active. */
  boostedPaddleHeight: 120,
  /** Radius within which a ball collects a power-up glyph. */
  powerUpRadius: 14,
  /** Server simulation steps per second. */
  tickRate: 60,
  /** `game_state` frames per second while a game runs. */
  stateRate: 30,
} as const;

/** Client → server: join the game (a spectator once both sides are taken). */
export const JoinGameFrameSchema = z.strictObject({
  type: z.literal('join_game'),
  data: z.strictObject({
    username: displayNameSchema({ label: 'username', max: 64 }),
    gameId: GameIdSchema.optional(),
  }),
  timestamp,
});
/**
 * Client → server: where the player wants its paddle. `y` outside the canvas is refused; inside
 * it the server clamps to 0..(400 − paddle height) and moves the paddle at most the paddle speed
 * (5) per step (spec 001 §5).
 */
export const PaddleMoveFrameSchema = z.strictObject({
  type: z.literal('paddle_move'),
  data: z.strictObject({
    side: PongSideSchema,
    y: z.number().finite().min(0).max(PONG.canvasHeight),
  }),
  timestamp,
});
/** Client → server: start (or resume, or restart) the game, or reset it. */
export const GameControlFrameSchema = z.strictObject({
  type: z.enum(['start_game', 'reset_game']),
  data: z.strictObject({}).optional(),
  timestamp,
});

const BallSchema = z.object({ x: z.number(), y: z.number(), vx: z.number(), vy: z.number() });
const PaddleSchema = z.object({ y: z.number(), size: z.number(), reversed: z.boolean() });
const PlayerSchema = z.object({ id: z.string(), username: z.string() }).nullable();

/** The state every member of a game receives, about 30 times a second while it runs. */
export const PongGameStateSchema = z.object({
  gameId: z.string(),
  players: z.object({ left: PlayerSchema, right: PlayerSchema }),
  spectators: z.number().int().nonnegative(),
  gameStatus: z.enum(['waiting', 'playing', 'paused', 'finished']),
  /** Practice (one player against the server's paddle) or multiplayer; null before a start. */
  mode: z.enum(['practice', 'multiplayer']).nullable(),
  winner: PongSideSchema.nullable(),
  scores: z.object({ left: z.number().int(), right: z.number().int() }),
  ball: BallSchema.extend({ isGhost: z.boolean() }),
  /** Extra balls of `multi_ball`. */
  balls: z.array(BallSchema),
  /** Ball speed in units per frame, boosts included (the speed bar, spec 001 §2). */
  speed: z.number(),
  paddles: z.object({ left: PaddleSchema, right: PaddleSchema }),
  powerUps: z.array(
    z.object({
      id: z.number().int(),
      type: PowerUpTypeSchema,
      x: z.number(),
      y: z.number(),
      created: z.number(),
    }),
  ),
  activeEffects: z.array(
    z.object({
      type: PowerUpTypeSchema,
      side: PongSideSchema.nullable(),
      /** Milliseconds left. */
      remaining: z.number(),
    }),
  ),
  glitchActive: z.boolean(),
  /** Simulation step of this snapshot (60 per second): the client interpolates between two. */
  tick: z.number().int().nonnegative(),
});
export type PongGameState = z.infer<typeof PongGameStateSchema>;

/** Server → client: the state and the receiver's side (null for a spectator). */
export const GameStateFrameSchema = z.object({
  type: z.literal('game_state'),
  data: z.object({ gameState: PongGameStateSchema, playerSide: PongSideSchema.nullable() }),
  timestamp: z.number(),
});
/** Server → client: a paddle moved (sent as soon as the server accepts a move). */
export const PaddleMovedFrameSchema = z.object({
  type: z.literal('paddle_move'),
  data: z.object({ side: PongSideSchema, y: z.number() }),
  timestamp: z.number(),
});
/** Server → client: the full-screen 'FREE YOUR MIND' moment. */
export const CyberpunkAnimationFrameSchema = z.object({
  type: z.literal('cyberpunk_animation'),
  data: z.object({ duration: z.number() }),
  timestamp: z.number(),
});
/** Server → client: a transient glitch banner. */
export const GlitchEffectFrameSchema = z.object({
  type: z.literal('glitch_effect'),
  data: z.object({ message: z.string(), duration: z.number() }),
  timestamp: z.number(),
});
/**
 * Server → client: a refused frame. The hub's `{type:"error", message}` gains `data: {message}`
 * and `timestamp` on `/ws`, so it is wrapped like every Pong frame.
 */
export const PongErrorFrameSchema = z.object({
  type: z.literal('error'),
  message: z.string(),
  data: z.object({ message: z.string() }).optional(),
  timestamp: z.number().optional(),
});

/** Every server frame the Pong screen reads. */
export const PongServerFrameSchema = z.discriminatedUnion('type', [
  GameStateFrameSchema,
  PaddleMovedFrameSchema,
  CyberpunkAnimationFrameSchema,
  GlitchEffectFrameSchema,
  PongErrorFrameSchema,
]);
export type PongServerFrame = z.infer<typeof PongServerFrameSchema>;

/** Texts of refused Pong frames (the specs give none but the visitor refusal). */
export const PONG_TEXT = {
  joinFirst: 'Join the game first',
  spectator: 'Spectators cannot control the game',
  notYourPaddle: 'You can only move your own paddle',
  alreadyPlaying: 'Game already in progress',
  notPlaying: 'Game is not in progress',
  hostGone: 'The game server went away: a new game has started',
  shuttingDown: 'Server shutting down: the game has ended',
} as const;
