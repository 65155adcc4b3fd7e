/** The fallback screen for an unknown path (spec 000 §2). */
import { Link } from 'wouter';
import { TEXT } from '../../shared/protocol/errors.js';

export function NotFoundPage() {
  return (
    <div className="flex min-h-screen flex-col bg-background font-mono text-fg">
      <header className="border-b border-border px-4 py-3 text-xs font-bold uppercase tracking-[0.25em] text-primary sm:px-6">
        SecureChannel
      </header>
      <main className="flex flex-1 items-center justify-center px-4 py-10 sm:px-6">
        <div className="w-full max-w-lg border border-border bg-surface p-6 shadow-[0_0_48px_-24px_var(--sc-primary)] sm:p-8">
          <p aria-hidden="true" className="text-xs text-muted">
            $ route --resolve {'<path>'}
          </p>
          <h1
            data-testid="not-found-title"
            className="mt-3 text-xl font-bold text-primary [text-shadow:0_0_12px_color-mix(in_srgb,var(--sc-primary)_55%,transparent)] sm:text-2xl"
          >
            {TEXT.notFoundTitle}
          </h1>
          <p data-testid="not-found-hint" className="mt-4 text-sm leading-relaxed text-fg">
            {TEXT.notFoundHint}
          </p>
          <Link
            href="/"
            data-testid="not-found-home"
            className="mt-8 inline-flex min-h-11 items-center justify-center gap-2 border border-primary bg-primary/10 whitespace-nowrap px-4 py-2 text-xs font-bold uppercase tracking-[0.12em] sm:px-5 sm:text-sm sm:tracking-[0.2em] text-primary transition-colors hover:bg-primary hover:text-background"
          >
            <span aria-hidden="true">[</span>
            Go to main channel
            <span aria-hidden="true">]</span>
          </Link>
        </div>
      </main>
    </div>
  );
}
