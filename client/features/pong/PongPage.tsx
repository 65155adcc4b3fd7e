/**
 * /pong (spec 001 §2 "Pong screen"). Key holders play; a visitor without a key session gets the
 * spec's refusal (spec 000 §5) and nothing else. `?game=name` opens a named game to share.
 */
import { Link } from 'wouter';
import { TEXT } from '../../../shared/protocol/errors.js';
import { DEFAULT_GAME_ID, GameIdSchema } from '../../../shared/protocol/ws/pong.js';
import { LoadingOverlay } from '../../ui/LoadingOverlay.js';
import { useAuth } from '../../lib/session/use-auth.js';
import { PongScreen } from './PongScreen.js';

export function PongPage() {
  const { sessionToken, user, isLoading } = useAuth();
  if (isLoading) return <LoadingOverlay isLoading message={TEXT.loading} />;
  if (!sessionToken || !user) return <PongRefusal />;
  const requested = GameIdSchema.safeParse(new URLSearchParams(window.location.search).get('game'));
  const gameId = requested.success ? requested.data : DEFAULT_GAME_ID;
  return <PongScreen sessionToken={sessionToken} username={user.username} gameId={gameId} />;
}

function PongRefusal() {
  return (
    <main className="flex min-h-screen items-center justify-center bg-background p-6 text-fg">
      <section
        className="w-full max-w-md rounded border border-border bg-surface p-6 text-center"
        aria-labelledby="pong-title"
      >
        <h1 id="pong-title" className="mb-2 text-lg font-bold tracking-widest text-primary">
          QUANTUM PONG
        </h1>
        <p className="mb-6 text-sm text-muted" data-testid="pong-refusal">
          {TEXT.pongRequiresKey}
        </p>
        <div className="flex flex-col gap-2 sm:flex-row sm:justify-center">
          <Link
            href="/get-key"
            className="rounded border border-primary px-3 py-2 text-xs tracking-widest text-primary hover:bg-primary/10"
          >
            [ GET A KEY ]
          </Link>
          <Link
            href="/"
            className="rounded border border-border px-3 py-2 text-xs tracking-widest text-fg hover:bg-primary/10"
          >
            [ BACK TO CHAT ]
          </Link>
        </div>
      </section>
    </main>
  );
}
