/**
 * Smooth motion from ~30 states a second: the screen draws 60+ frames a second at a moment a
 * little in the past (two state intervals), between the two states around it, so the ball and
 * the paddles glide instead of stepping. A jump too large to be motion (a serve after a point)
 * is drawn as a jump.
 */
import type { PongGameState } from '../../../shared/protocol/ws/pong.js';

interface Snapshot {
  state: PongGameState;
  receivedAt: number;
}

/** How far behind the newest state the screen draws, in milliseconds. */
export const INTERPOLATION_DELAY_MS = 70;
const MAX_SNAPSHOTS = 8;
const JUMP = 120;

export class Interpolator {
  private snapshots: Snapshot[] = [];

  push(state: PongGameState, receivedAt: number): void {
    this.snapshots.push({ state, receivedAt });
    if (this.snapshots.length > MAX_SNAPSHOTS) this.snapshots.shift();
  }

  latest(): PongGameState | null {
    return this.snapshots.at(-1)?.state ?? null;
  }

  /** The state to draw at `now`. */
  at(now: number): PongGameState | null {
    const renderAt = now - INTERPOLATION_DELAY_MS;
    const newest = this.snapshots.at(-1);
    if (!newest) return null;
    if (newest.state.gameStatus !== 'playing') return newest.state;
    let before: Snapshot | undefined;
    let after: Snapshot | undefined;
    for (const snapshot of this.snapshots) {
      if (snapshot.receivedAt <= renderAt) before = snapshot;
      else if (!after) after = snapshot;
    }
    if (!before) return this.snapshots[0]?.state ?? null;
    if (!after) return before.state;
    const share = (renderAt - before.receivedAt) / (after.receivedAt - before.receivedAt);
    return blend(before.state, after.state, Math.min(Math.max(share, 0), 1));
  }
}

const lerp = (from: number, to: number, share: number) => from + (to - from) * share;

/** `to`, with the ball, extra balls and paddles placed `share` of the way from `from`. */
export function blend(from: PongGameState, to: PongGameState, share: number): PongGameState {
  const ballJumps = Math.hypot(to.ball.x - from.ball.x, to.ball.y - from.ball.y) > JUMP;
  const ball = ballJumps
    ? to.ball
    : {
        ...to.ball,
        x: lerp(from.ball.x, to.ball.x, share),
        y: lerp(from.ball.y, to.ball.y, share),
      };
  const balls =
    from.balls.length === to.balls.length
      ? to.balls.map((extra, index) => {
          const previous = from.balls[index] ?? extra;
          return {
            ...extra,
            x: lerp(previous.x, extra.x, share),
            y: lerp(previous.y, extra.y, share),
          };
        })
      : to.balls;
  return {
    ...to,
    ball,
    balls,
    paddles: {
      left: { ...to.paddles.left, y: lerp(from.paddles.left.y, to.paddles.left.y, share) },
      right: { ...to.paddles.right, y: lerp(from.paddles.right.y, to.paddles.right.y, share) },
    },
  };
}
