/**
 * Hosts the games that live on this process: runs them on one 60 Hz loop, takes inputs from the
 * members' processes (this one included) on `pong-in:{gameId}` and publishes state (30 a second
 * while a game runs, and at once after any change) and moments on `pong-out:{gameId}`.
 */
import { randomInt } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { PONG_FIELD } from '../../../shared/protocol/ws/pong.js';
import type { Fanout } from '../../realtime/fanout.js';
import {
  encodeState,
  FRAME_TYPE_OF_OP,
  GameInputSchema,
  inChannel,
  outChannel,
  type GameInput,
  type GameOutput,
} from './channel-messages.js';
import type { GameDirectory } from './directory.js';
import { PongGame, PongRuleError, type GameMoment } from './game.js';
import { seededRandom } from './random.js';
import { TickLoop } from './tick-loop.js';

export interface PongHostOptions {
  processId: string;
  fanout: Fanout;
  directory: GameDirectory;
  logger: FastifyBaseLogger;
  /** Frame timestamps. */
  now: () => number;
  /** Simulation steps per tick (1 = real time). */
  timeScale: number;
  /** Seed of each new game; random by default. */
  seed?: () => number;
  onTickTimed?: (durationMs: number) => void;
}

interface HostedGame {
  game: PongGame;
  /** Member → the process holding its socket. */
  processes: Map<string, string>;
  unsubscribe: Promise<() => Promise<void>>;
  isDirty: boolean;
}

const STATE_EVERY = PONG_FIELD.tickRate / PONG_FIELD.stateRate;

export class PongHost {
  private readonly games = new Map<string, HostedGame>();
  private readonly loop: TickLoop;

  constructor(private readonly options: PongHostOptions) {
    this.loop = new TickLoop({
      rate: PONG_FIELD.tickRate,
      onTick: (tick) => this.tick(tick),
      onTickTimed: options.onTickTimed,
    });
  }

  get gameCount(): number {
    return this.games.size;
  }

  hosts(gameId: string): boolean {
    return this.games.has(gameId);
  }

  /** Starts hosting `gameId` (this process holds its claim); resolves once inputs are heard. */
  async host(gameId: string): Promise<void> {
    const existing = this.games.get(gameId);
    if (existing) {
      await existing.unsubscribe;
      return;
    }
    const seed = this.options.seed?.() ?? randomInt(0, 2 ** 32);
    const hosted: HostedGame = {
      game: new PongGame(gameId, seededRandom(seed)),
      processes: new Map(),
      isDirty: true,
      unsubscribe: this.options.fanout.subscribe(inChannel(gameId), (payload) =>
        this.receive(gameId, payload),
      ),
    };
    this.games.set(gameId, hosted);
    this.loop.start();
    await hosted.unsubscribe;
  }

  /** Applies one input; exposed so the benchmark can drive games without sockets. */
  apply(gameId: string, input: GameInput): void {
    const hosted = this.games.get(gameId);
    if (!hosted) return;
    const { game } = hosted;
    try {
      switch (input.op) {
        case 'join':
          hosted.processes.set(input.member, input.processId);
          game.join({ id: input.member, username: input.username });
          break;
        case 'leave':
          hosted.processes.delete(input.member);
          game.leave(input.member);
          if (game.memberCount() === 0) return void this.drop(gameId);
          break;
        case 'move': {
          const y = game.move(input.member, input.side, input.y);
          this.publish(gameId, {
            k: 'frame',
            frame: JSON.stringify({
              type: 'paddle_move',
              data: { side: input.side, y },
              timestamp: this.options.now(),
            }),
          });
          return;
        }
        case 'start':
          game.start(input.member);
          break;
        case 'reset':
          game.reset(input.member);
          break;
      }
      hosted.isDirty = true;
    } catch (error) {
      if (!(error instanceof PongRuleError)) throw error;
      this.publish(gameId, {
        k: 'error',
        member: input.member,
        message: error.message,
        frameType: FRAME_TYPE_OF_OP[input.op],
      });
    }
  }

  /** The live game `gameId` (read-only use: benchmarks and tests). */
  peek(gameId: string): PongGame | null {
    return this.games.get(gameId)?.game ?? null;
  }

  /** The games' claims, to keep alive. */
  gameIds(): string[] {
    return [...this.games.keys()];
  }

  /** Members on processes that died leave their games (Redis only). */
  async dropDeadMembers(): Promise<void> {
    for (const [gameId, hosted] of this.games) {
      for (const [member, processId] of hosted.processes) {
        if (processId === this.options.processId) continue;
        if (!(await this.options.directory.isAlive(processId)))
          this.apply(gameId, { op: 'leave', member });
      }
    }
  }

  /** Ends every hosted game: members hear why, the claims are released. */
  async close(message: string): Promise<void> {
    this.loop.stop();
    const ids = [...this.games.keys()];
    for (const gameId of ids) this.publish(gameId, { k: 'ended', message });
    await Promise.all(ids.map((gameId) => this.drop(gameId)));
  }

  private receive(gameId: string, payload: string): void {
    let input: GameInput;
    try {
      const parsed = GameInputSchema.safeParse(JSON.parse(payload));
      if (!parsed.success) return;
      input = parsed.data;
    } catch {
      return;
    }
    try {
      this.apply(gameId, input);
    } catch (error) {
      this.options.logger.error(
        { err: { name: error instanceof Error ? error.name : 'unknown' } },
        'pong input failed',
      );
    }
  }

  private tick(tick: number): void {
    const isStateTick = tick % STATE_EVERY === 0;
    for (const [gameId, hosted] of this.games) {
      for (let step = 0; step < this.options.timeScale; step += 1) {
        const moments = hosted.game.step();
        if (moments.length > 0) {
          hosted.isDirty = true;
          for (const moment of moments)
            this.publish(gameId, { k: 'frame', frame: this.momentFrame(moment) });
        }
      }
      if (hosted.isDirty || (isStateTick && hosted.game.status === 'playing')) {
        hosted.isDirty = false;
        this.publishState(gameId, hosted.game);
      }
    }
  }

  private momentFrame(moment: GameMoment): string {
    const timestamp = this.options.now();
    return JSON.stringify(
      moment.kind === 'glitch'
        ? {
            type: 'glitch_effect',
            data: { message: moment.message, duration: moment.duration },
            timestamp,
          }
        : { type: 'cyberpunk_animation', data: { duration: moment.duration }, timestamp },
    );
  }

  private publishState(gameId: string, game: PongGame): void {
    const payload = encodeState(
      game.players.left?.id ?? null,
      game.players.right?.id ?? null,
      this.options.now(),
      JSON.stringify(game.snapshot()),
    );
    this.send(gameId, payload);
  }

  private publish(gameId: string, output: GameOutput): void {
    this.send(gameId, JSON.stringify(output));
  }

  private send(gameId: string, payload: string): void {
    this.options.fanout.publish(outChannel(gameId), payload).catch(() => {
      this.options.logger.warn({ gameId }, 'pong publish failed');
    });
  }

  private async drop(gameId: string): Promise<void> {
    const hosted = this.games.get(gameId);
    if (!hosted) return;
    this.games.delete(gameId);
    if (this.games.size === 0) this.loop.stop();
    await (
      await hosted.unsubscribe
    )();
    await this.options.directory.release(gameId, this.options.processId);
  }
}
