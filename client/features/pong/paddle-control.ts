/**
 * The player's own paddle between two states: keys move it at once on screen (the paddle speed, 5
 * units per 1/60 s, as the server moves it), and the aim goes to the server at most ~15 times a
 * second, under the socket's flood limit. The server clamps and moves the real paddle (spec 001
 * §5); while controls are reversed it mirrors the aim, so the screen then shows the server's
 * paddle rather than predicting it.
 */
import { PONG } from '../../../shared/constants.js';

export const SEND_INTERVAL_MS = 66;
/** How far ahead of the server's paddle a reversed aim points. */
const REVERSED_LEAD = 30;
/** Further than this from the server's paddle, the prediction gives way to it. */
const RESYNC = 60;

export class PaddleControl {
  private predicted: number | null = null;
  private lastSentAt = -Infinity;
  private lastSent: number | null = null;

  /**
   * Advances by `elapsedMs` with `direction` (-1 up, 1 down, 0 none). Returns the y to draw for
   * the own paddle and the aim to send now, if any.
   */
  update(
    now: number,
    elapsedMs: number,
    direction: -1 | 0 | 1,
    server: { y: number; size: number; reversed: boolean },
    isPlaying: boolean,
  ): { drawY: number; send: number | null } {
    const maxY = PONG.canvasHeight - server.size;
    if (!isPlaying || server.reversed) {
      this.predicted = null;
      const aim = isPlaying && direction !== 0 ? server.y + direction * REVERSED_LEAD : null;
      return {
        drawY: server.y,
        send:
          aim === null ? null : this.throttle(now, Math.min(Math.max(aim, 0), PONG.canvasHeight)),
      };
    }
    if (this.predicted === null || Math.abs(this.predicted - server.y) > RESYNC)
      this.predicted = server.y;
    if (direction !== 0) {
      const step = PONG.paddleSpeed * (elapsedMs / (1000 / 60));
      this.predicted = Math.min(Math.max(this.predicted + direction * step, 0), maxY);
    }
    const send = this.predicted !== this.lastSent ? this.throttle(now, this.predicted) : null;
    return { drawY: this.predicted, send };
  }

  private throttle(now: number, aim: number): number | null {
    if (now - this.lastSentAt < SEND_INTERVAL_MS) return null;
    this.lastSentAt = now;
    this.lastSent = aim;
    return Math.round(aim * 10) / 10;
  }
}
