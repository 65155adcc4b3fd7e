/**
 * The 800×400 field, scaled down on narrow screens with its aspect kept. One animation loop reads
 * the held keys (arrow up or W, arrow down or S), moves the own paddle, sends its aim and draws
 * the interpolated state at the display's frame rate.
 */
import { useEffect, useRef } from 'react';
import { PONG } from '../../../shared/constants.js';
import type { PongSide } from '../../../shared/protocol/ws/pong.js';
import { drawField, readPalette } from './draw.js';
import type { Interpolator } from './interpolation.js';
import { PaddleControl } from './paddle-control.js';

interface PongCanvasProps {
  interpolator: Interpolator;
  playerSide: PongSide | null;
  sendMove: (side: PongSide, y: number) => void;
}

const UP_KEYS = new Set(['ArrowUp', 'w', 'W']);
const DOWN_KEYS = new Set(['ArrowDown', 's', 'S']);

export function PongCanvas({ interpolator, playerSide, sendMove }: PongCanvasProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const held = useRef({ up: false, down: false });

  useEffect(() => {
    const isTyping = (event: KeyboardEvent) =>
      event.target instanceof HTMLElement && ['INPUT', 'TEXTAREA'].includes(event.target.tagName);
    const onKey = (isDown: boolean) => (event: KeyboardEvent) => {
      if (isTyping(event)) return;
      if (UP_KEYS.has(event.key)) held.current.up = isDown;
      else if (DOWN_KEYS.has(event.key)) held.current.down = isDown;
      else return;
      event.preventDefault();
    };
    const onDown = onKey(true);
    const onUp = onKey(false);
    const onBlur = () => {
      held.current = { up: false, down: false };
    };
    window.addEventListener('keydown', onDown);
    window.addEventListener('keyup', onUp);
    window.addEventListener('blur', onBlur);
    return () => {
      window.removeEventListener('keydown', onDown);
      window.removeEventListener('keyup', onUp);
      window.removeEventListener('blur', onBlur);
    };
  }, []);

  useEffect(() => {
    const canvas = canvasRef.current;
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return;
    const control = new PaddleControl();
    let palette = readPalette(document.documentElement);
    let paletteAt = 0;
    let previous = performance.now();
    let frame = requestAnimationFrame(function draw(now) {
      // Themes can change while the game runs; re-read the colours now and then.
      if (now - paletteAt > 1000) {
        palette = readPalette(document.documentElement);
        paletteAt = now;
      }
      const state = interpolator.at(now);
      const latest = interpolator.latest();
      let ownY: number | null = null;
      if (playerSide && latest) {
        const { up, down } = held.current;
        const direction = up === down ? 0 : up ? -1 : 1;
        const server = {
          ...latest.paddles[playerSide],
          y: state?.paddles[playerSide].y ?? latest.paddles[playerSide].y,
        };
        const result = control.update(
          now,
          now - previous,
          direction,
          server,
          latest.gameStatus === 'playing',
        );
        ownY = result.drawY;
        if (result.send !== null) sendMove(playerSide, result.send);
      }
      previous = now;
      drawField(context, state, palette, playerSide, ownY, now);
      // What is drawn, readable by tests and assistive tools: each paddle's top edge.
      if (state) {
        const leftY = String(
          Math.round(playerSide === 'left' && ownY !== null ? ownY : state.paddles.left.y),
        );
        const rightY = String(
          Math.round(playerSide === 'right' && ownY !== null ? ownY : state.paddles.right.y),
        );
        if (canvas.dataset.leftY !== leftY) canvas.dataset.leftY = leftY;
        if (canvas.dataset.rightY !== rightY) canvas.dataset.rightY = rightY;
      }
      frame = requestAnimationFrame(draw);
    });
    return () => cancelAnimationFrame(frame);
  }, [interpolator, playerSide, sendMove]);

  return (
    <canvas
      ref={canvasRef}
      width={PONG.canvasWidth}
      height={PONG.canvasHeight}
      data-testid="pong-canvas"
      aria-label="Pong field"
      className="block h-auto w-full max-w-[800px] border border-border"
      style={{ aspectRatio: `${PONG.canvasWidth} / ${PONG.canvasHeight}` }}
    />
  );
}
