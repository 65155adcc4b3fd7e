/** /pong requires authentication with a key; visitors get the spec's refusal (spec 000 §5). */
import { Link } from 'wouter';
import { TEXT } from '../../../shared/protocol/errors.js';

export function PongPage() {
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
