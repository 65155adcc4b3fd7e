/**
 * Draws one frame of the 800×400 field (spec 001 §2 "Pong screen"): the centre line, both paddles
 * (a reversed one striped), the ball (faint when it is a ghost), extra balls, the power-up glyphs
 * and the 'YOU' marker above the player's own paddle. Colours come from the active theme.
 */
import { PONG } from '../../../shared/constants.js';
import {
  PONG_FIELD,
  type PongGameState,
  type PongSide,
  type PowerUpType,
} from '../../../shared/protocol/ws/pong.js';

export interface Palette {
  primary: string;
  secondary: string;
  accent: string;
  background: string;
  text: string;
  muted: string;
  warning: string;
}

/** The glyph and label of each power-up. */
export const POWER_UP_GLYPH: Record<PowerUpType, { glyph: string; label: string }> = {
  speed_boost: { glyph: '»', label: 'SPEED' },
  paddle_size: { glyph: '▮', label: 'SIZE' },
  multi_ball: { glyph: '⁂', label: 'MULTI' },
  reverse_controls: { glyph: '⇅', label: 'REVERSE' },
  ghost_ball: { glyph: '◌', label: 'GHOST' },
};

export const paddleX = (side: PongSide) =>
  side === 'left'
    ? PONG_FIELD.paddleMargin
    : PONG.canvasWidth - PONG_FIELD.paddleMargin - PONG.paddleWidth;

export function readPalette(element: Element): Palette {
  const style = getComputedStyle(element);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    primary: read('--sc-primary', '#00ff41'),
    secondary: read('--sc-secondary', '#008f11'),
    accent: read('--sc-accent', '#00ff41'),
    background: read('--sc-background', '#000000'),
    text: read('--sc-text', '#00ff41'),
    muted: read('--sc-muted', '#4a7c59'),
    warning: read('--sc-warning', '#ffaa00'),
  };
}

export function drawField(
  context: CanvasRenderingContext2D,
  state: PongGameState | null,
  palette: Palette,
  ownSide: PongSide | null,
  ownPaddleY: number | null,
  time: number,
): void {
  const { canvasWidth: width, canvasHeight: height } = PONG;
  context.fillStyle = palette.background;
  context.fillRect(0, 0, width, height);
  context.strokeStyle = palette.muted;
  context.lineWidth = 2;
  context.setLineDash([10, 10]);
  context.beginPath();
  context.moveTo(width / 2, 0);
  context.lineTo(width / 2, height);
  context.stroke();
  context.setLineDash([]);
  if (!state) return;

  context.font = 'bold 18px monospace';
  context.textAlign = 'center';
  context.textBaseline = 'middle';
  for (const powerUp of state.powerUps) {
    const pulse = 0.6 + 0.4 * Math.sin(time / 150 + powerUp.id);
    context.globalAlpha = pulse;
    context.strokeStyle = palette.accent;
    context.beginPath();
    context.arc(powerUp.x, powerUp.y, PONG_FIELD.powerUpRadius, 0, Math.PI * 2);
    context.stroke();
    context.fillStyle = palette.accent;
    context.fillText(POWER_UP_GLYPH[powerUp.type].glyph, powerUp.x, powerUp.y + 1);
    context.globalAlpha = 1;
    context.font = '9px monospace';
    context.fillText(POWER_UP_GLYPH[powerUp.type].label, powerUp.x, powerUp.y + 24);
    context.font = 'bold 18px monospace';
  }

  for (const side of ['left', 'right'] as const) {
    const paddle = state.paddles[side];
    const y = side === ownSide && ownPaddleY !== null ? ownPaddleY : paddle.y;
    context.fillStyle = side === ownSide ? palette.primary : palette.secondary;
    context.shadowColor = palette.primary;
    context.shadowBlur = side === ownSide ? 12 : 4;
    context.fillRect(paddleX(side), y, PONG.paddleWidth, paddle.size);
    context.shadowBlur = 0;
    if (paddle.reversed) {
      context.fillStyle = palette.warning;
      for (let stripe = y; stripe < y + paddle.size; stripe += 12) {
        context.fillRect(paddleX(side), stripe, PONG.paddleWidth, 5);
      }
    }
    if (side === ownSide) {
      context.fillStyle = palette.text;
      context.font = 'bold 12px monospace';
      // Above the paddle, or below it when the paddle touches the top edge.
      const markerY = y >= 20 ? y - 12 : y + paddle.size + 12;
      context.fillText('YOU', paddleX(side) + PONG.paddleWidth / 2, markerY);
    }
  }

  const half = PONG.ballSize / 2;
  context.fillStyle = palette.text;
  context.globalAlpha = state.ball.isGhost ? 0.15 + 0.1 * Math.sin(time / 90) : 1;
  context.shadowColor = palette.primary;
  context.shadowBlur = 10;
  context.fillRect(state.ball.x - half, state.ball.y - half, PONG.ballSize, PONG.ballSize);
  context.globalAlpha = 1;
  context.fillStyle = palette.accent;
  for (const extra of state.balls) {
    context.fillRect(extra.x - half, extra.y - half, PONG.ballSize, PONG.ballSize);
  }
  context.shadowBlur = 0;
}
