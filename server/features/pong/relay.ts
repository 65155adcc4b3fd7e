/**
 * This process's side of the games its sockets take part in. It claims a game for this process
 * when nobody hosts it, forwards its members' inputs to the host (wherever it lives), and turns
 * the host's messages into frames for its own sockets, each `game_state` carrying the receiver's
 * side. When the host goes away its members here land in a fresh game, told why.
 */
import type { FastifyBaseLogger } from 'fastify';
import { PONG_TEXT, type PongSide } from '../../../shared/protocol/ws/pong.js';
import { AppError } from '../../errors.js';
import type { Connection } from '../../realtime/connection.js';
import type { Fanout } from '../../realtime/fanout.js';
import {
  decodeState,
  GameOutputSchema,
  inChannel,
  outChannel,
  type GameInput,
} from './channel-messages.js';
import type { GameDirectory } from './directory.js';
import type { PongHost } from './host.js';

export interface PongRelayOptions {
  processId: string;
  fanout: Fanout;
  directory: GameDirectory;
  host: PongHost;
  logger: FastifyBaseLogger;
  now: () => number;
}

interface Member {
  gameId: string;
  username: string;
  /** From the latest state: a side, null for a spectator, undefined before the first state. */
  side: PongSide | null | undefined;
  joinTimer: NodeJS.Timeout | null;
}

interface LocalGame {
  connections: Set<Connection>;
  unsubscribe: Promise<() => Promise<void>>;
}

/** A join not answered by a state within this time is sent again (its host may have just left). */
const JOIN_RETRY_MS = 1500;

export class PongRelay {
  private readonly members = new Map<Connection, Member>();
  private readonly games = new Map<string, LocalGame>();
  /** Set when this process shuts down: its sockets are closing, nobody is moved to a new game. */
  isClosing = false;

  constructor(private readonly options: PongRelayOptions) {}

  /** join_game: leaves any other game, then joins `gameId` hosted here or elsewhere. */
  async join(connection: Connection, gameId: string, username: string): Promise<void> {
    const current = this.members.get(connection);
    if (current && current.gameId !== gameId) await this.leave(connection);
    const member: Member = this.members.get(connection) ?? {
      gameId,
      username,
      side: undefined,
      joinTimer: null,
    };
    this.members.set(connection, member);
    await this.listen(connection, gameId);
    await this.sendJoin(connection, member);
  }

  /** Leaves the connection's game, if any (also on disconnect). */
  async leave(connection: Connection): Promise<void> {
    const member = this.members.get(connection);
    if (!member) return;
    this.members.delete(connection);
    if (member.joinTimer) clearTimeout(member.joinTimer);
    await this.forward(member.gameId, { op: 'leave', member: connection.nodeId });
    const local = this.games.get(member.gameId);
    if (!local) return;
    local.connections.delete(connection);
    if (local.connections.size > 0) return;
    this.games.delete(member.gameId);
    await (
      await local.unsubscribe
    )();
  }

  /** paddle_move, start_game, reset_game: checked here as far as this process knows, then sent. */
  async command(
    connection: Connection,
    input: { op: 'move'; side: PongSide; y: number } | { op: 'start' | 'reset' },
  ): Promise<void> {
    const member = this.members.get(connection);
    if (!member) throw new AppError('PONG_RULE', 409, PONG_TEXT.joinFirst);
    if (member.side === null) throw new AppError('PONG_RULE', 409, PONG_TEXT.spectator);
    if (input.op === 'move' && member.side !== undefined && member.side !== input.side) {
      throw new AppError('PONG_RULE', 409, PONG_TEXT.notYourPaddle);
    }
    await this.forward(member.gameId, { ...input, member: connection.nodeId });
  }

  /** Games with members here whose host has gone (crashed) start afresh. */
  async checkHosts(): Promise<void> {
    for (const gameId of [...this.games.keys()]) {
      if (this.options.host.hosts(gameId)) continue;
      if ((await this.options.directory.owner(gameId)) === null)
        this.restart(gameId, PONG_TEXT.hostGone);
    }
  }

  memberCount(): number {
    return this.members.size;
  }

  private async listen(connection: Connection, gameId: string): Promise<void> {
    let local = this.games.get(gameId);
    if (!local) {
      local = {
        connections: new Set(),
        unsubscribe: this.options.fanout.subscribe(outChannel(gameId), (payload) =>
          this.deliver(gameId, payload),
        ),
      };
      this.games.set(gameId, local);
    }
    local.connections.add(connection);
    await local.unsubscribe;
  }

  private async sendJoin(connection: Connection, member: Member): Promise<void> {
    const owner = await this.options.directory.claim(member.gameId, this.options.processId);
    if (owner === this.options.processId) await this.options.host.host(member.gameId);
    if (member.joinTimer) clearTimeout(member.joinTimer);
    member.joinTimer = setTimeout(() => {
      member.joinTimer = null;
      if (this.members.get(connection) === member && member.side === undefined) {
        void this.sendJoin(connection, member).catch(() => undefined);
      }
    }, JOIN_RETRY_MS);
    member.joinTimer.unref();
    await this.forward(member.gameId, {
      op: 'join',
      member: connection.nodeId,
      processId: this.options.processId,
      username: member.username,
    });
  }

  private async forward(gameId: string, input: GameInput): Promise<void> {
    await this.options.fanout.publish(inChannel(gameId), JSON.stringify(input));
  }

  private deliver(gameId: string, payload: string): void {
    const local = this.games.get(gameId);
    if (!local) return;
    const state = decodeState(payload);
    if (state) return this.deliverState(local, state);
    let output;
    try {
      const parsed = GameOutputSchema.safeParse(JSON.parse(payload));
      if (!parsed.success) return;
      output = parsed.data;
    } catch {
      return;
    }
    switch (output.k) {
      case 'frame':
        for (const connection of local.connections) connection.sendRaw(output.frame);
        break;
      case 'error':
        for (const connection of local.connections) {
          if (connection.nodeId !== output.member) continue;
          connection.send(this.errorFrame(output.message, output.frameType));
        }
        break;
      case 'ended':
        this.restart(gameId, output.message);
        break;
    }
  }

  private deliverState(
    local: LocalGame,
    state: { left: string; right: string; timestamp: string; stateJson: string },
  ): void {
    const head = `{"type":"game_state","data":{"gameState":${state.stateJson},"playerSide":`;
    const tail = `},"timestamp":${state.timestamp}}`;
    const frames = {
      left: `${head}"left"${tail}`,
      right: `${head}"right"${tail}`,
      none: `${head}null${tail}`,
    };
    for (const connection of local.connections) {
      const member = this.members.get(connection);
      if (!member) continue;
      const side =
        connection.nodeId === state.left
          ? 'left'
          : connection.nodeId === state.right
            ? 'right'
            : null;
      member.side = side;
      connection.sendRaw(side === null ? frames.none : frames[side]);
    }
  }

  /** The game's host ended it: tell this process's members, then put them in a fresh game. */
  private restart(gameId: string, message: string): void {
    const local = this.games.get(gameId);
    if (!local || this.isClosing) return;
    const connections = [...local.connections];
    void (async () => {
      for (const connection of connections) {
        const member = this.members.get(connection);
        if (!member) continue;
        member.side = undefined;
        connection.send(this.errorFrame(message, 'join_game'));
        await this.sendJoin(connection, member);
      }
    })().catch((error: unknown) =>
      this.options.logger.warn(
        { err: { name: error instanceof Error ? error.name : 'unknown' } },
        'pong rejoin failed',
      ),
    );
  }

  private errorFrame(message: string, frameType: string) {
    return { type: 'error', message, frameType, data: { message }, timestamp: this.options.now() };
  }
}
