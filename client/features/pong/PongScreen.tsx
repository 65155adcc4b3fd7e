/**
 * The game screen: header (back to chat, connection status, side badge), the field with its
 * overlays (waiting, glitch banners), the side panel, and the full-screen FREE YOUR MIND effect.
 */
import { Link } from 'wouter';
import { PongCanvas } from './PongCanvas.js';
import { PongSidePanel } from './PongSidePanel.js';
import { statusText } from './status-text.js';
import { usePongGame } from './use-pong-game.js';

interface PongScreenProps {
  sessionToken: string;
  username: string;
  gameId: string;
}

export function PongScreen({ sessionToken, username, gameId }: PongScreenProps) {
  const game = usePongGame(sessionToken, username, gameId);
  const { state, playerSide } = game;
  const players = state ? (state.players.left ? 1 : 0) + (state.players.right ? 1 : 0) : 0;
  const isWaiting = state?.gameStatus === 'waiting' && players < 2;
  return (
    <main className="min-h-screen bg-background p-3 text-fg sm:p-6">
      <header className="mb-4 flex flex-wrap items-center gap-3 border-b border-border pb-3">
        <Link
          href="/"
          className="rounded border border-border px-3 py-1 text-xs tracking-widest hover:bg-primary/10"
        >
          ← BACK TO CHAT
        </Link>
        <h1 className="text-lg font-bold tracking-widest text-primary">QUANTUM PONG</h1>
        <span className="text-xs tracking-widest text-muted" data-testid="pong-connection">
          {game.connection}
        </span>
        {playerSide && (
          <span
            className="rounded border border-primary px-2 py-0.5 text-xs font-bold tracking-widest text-primary"
            data-testid="pong-side"
          >
            {playerSide === 'left' ? 'LEFT PLAYER' : 'RIGHT PLAYER'}
          </span>
        )}
      </header>
      <p className="mb-3 text-sm text-accent" role="status" data-testid="pong-status">
        {statusText(state)}
      </p>
      <div className="flex flex-col gap-4 lg:flex-row lg:items-start">
        <div className="relative w-full max-w-[800px]">
          <PongCanvas
            interpolator={game.interpolator}
            playerSide={playerSide}
            sendMove={game.sendMove}
          />
          {isWaiting && (
            <div
              className="pointer-events-none absolute inset-0 flex items-center justify-center bg-background/60"
              data-testid="pong-waiting"
            >
              <p className="rounded border border-border bg-surface px-4 py-2 text-center text-sm tracking-wide">
                Share this room to invite another player
                <span className="mt-1 block text-xs text-muted">
                  {window.location.origin}/pong{gameId === 'lobby' ? '' : `?game=${gameId}`}
                </span>
              </p>
            </div>
          )}
          <div
            className="pointer-events-none absolute inset-x-0 top-2 flex flex-col items-center gap-1"
            aria-live="polite"
          >
            {game.glitches.map((banner) => (
              <p
                key={banner.id}
                className="pong-glitch rounded border border-accent bg-background/80 px-3 py-1 text-xs font-bold tracking-widest text-accent"
                data-testid="pong-glitch"
              >
                {banner.message}
              </p>
            ))}
          </div>
        </div>
        <PongSidePanel
          state={state}
          playerSide={playerSide}
          isConnected={game.connection === 'connected'}
          onStart={game.start}
          onReset={game.reset}
        />
      </div>
      {game.isFreeMind && (
        <div
          className="pong-free-mind pointer-events-none fixed inset-0 z-50 flex items-center justify-center bg-background/85"
          data-testid="pong-free-mind"
        >
          <p className="text-4xl font-bold tracking-[0.3em] text-primary sm:text-6xl">
            FREE YOUR MIND
          </p>
        </div>
      )}
    </main>
  );
}
