/**
 * The side panel (spec 001 §2): scores, the ball speed with its bar (full at 12 units/frame),
 * the player slots ('Waiting...' when empty), the buttons and the controls.
 */
import { PONG } from '../../../shared/constants.js';
import type { PongGameState, PongSide } from '../../../shared/protocol/ws/pong.js';
import { POWER_UP_GLYPH } from './draw.js';

interface PongSidePanelProps {
  state: PongGameState | null;
  playerSide: PongSide | null;
  isConnected: boolean;
  onStart: () => void;
  onReset: () => void;
}

export function PongSidePanel({
  state,
  playerSide,
  isConnected,
  onStart,
  onReset,
}: PongSidePanelProps) {
  const players = state ? (state.players.left ? 1 : 0) + (state.players.right ? 1 : 0) : 0;
  const isPlaying = state?.gameStatus === 'playing';
  const canControl = isConnected && playerSide !== null;
  const speed = state?.speed ?? 0;
  const button =
    'w-full rounded border px-3 py-2 text-xs tracking-widest disabled:cursor-not-allowed disabled:opacity-40';
  return (
    <aside className="flex w-full flex-col gap-4 text-sm lg:w-64" aria-label="Game panel">
      <section className="rounded border border-border bg-surface p-3">
        <h2 className="mb-2 text-xs tracking-widest text-muted">SCORE</h2>
        <div
          className="flex items-center justify-around text-3xl font-bold text-primary"
          data-testid="pong-scores"
        >
          <span data-testid="pong-score-left">{state?.scores.left ?? 0}</span>
          <span className="text-muted">:</span>
          <span data-testid="pong-score-right">{state?.scores.right ?? 0}</span>
        </div>
      </section>
      <section className="rounded border border-border bg-surface p-3">
        <h2 className="mb-2 text-xs tracking-widest text-muted">BALL SPEED</h2>
        <p className="mb-1 text-fg" data-testid="pong-speed">
          {speed.toFixed(1)} units/frame
        </p>
        <div
          className="h-2 w-full rounded bg-background"
          role="meter"
          aria-label="Ball speed"
          aria-valuemin={0}
          aria-valuemax={PONG.speedBarScale}
          aria-valuenow={speed}
        >
          <div
            className="h-2 rounded bg-primary"
            style={{ width: `${Math.min(speed / PONG.speedBarScale, 1) * 100}%` }}
          />
        </div>
      </section>
      <section className="rounded border border-border bg-surface p-3">
        <h2 className="mb-2 text-xs tracking-widest text-muted">PLAYERS</h2>
        {(['left', 'right'] as const).map((side) => (
          <p key={side} className="flex justify-between gap-2" data-testid={`pong-slot-${side}`}>
            <span className="text-muted">{side === 'left' ? 'LEFT' : 'RIGHT'}</span>
            <span className={state?.players[side] ? 'truncate text-fg' : 'text-muted italic'}>
              {state?.players[side]?.username ?? 'Waiting...'}
              {playerSide === side ? ' (you)' : ''}
            </span>
          </p>
        ))}
        {state && state.spectators > 0 && (
          <p className="mt-1 text-xs text-muted">{state.spectators} watching</p>
        )}
      </section>
      {state && state.activeEffects.length > 0 && (
        <section className="rounded border border-accent bg-surface p-3" data-testid="pong-effects">
          <h2 className="mb-2 text-xs tracking-widest text-muted">ACTIVE EFFECTS</h2>
          {state.activeEffects.map((effect) => (
            <p
              key={`${effect.type}-${effect.side ?? 'ball'}`}
              className="flex justify-between text-accent"
            >
              <span>
                {POWER_UP_GLYPH[effect.type].glyph} {POWER_UP_GLYPH[effect.type].label}
                {effect.side ? ` (${effect.side.toUpperCase()})` : ''}
              </span>
              <span>{(effect.remaining / 1000).toFixed(1)}s</span>
            </p>
          ))}
        </section>
      )}
      <div className="flex flex-col gap-2">
        <button
          type="button"
          className={`${button} border-primary text-primary hover:bg-primary/10`}
          disabled={!canControl || isPlaying}
          onClick={onStart}
        >
          {players < 2 ? 'Start Practice Mode' : 'Start Game'}
        </button>
        <button
          type="button"
          className={`${button} border-border text-fg hover:bg-primary/10`}
          disabled={!canControl}
          onClick={onReset}
        >
          Reset Game
        </button>
      </div>
      <section className="rounded border border-border bg-surface p-3 text-xs text-muted">
        <h2 className="mb-1 tracking-widest">CONTROLS</h2>
        <p>↑ or W: up</p>
        <p>↓ or S: down</p>
      </section>
    </aside>
  );
}
