/**
 * /direct-messages without a session token or user: AUTHENTICATION REQUIRED (spec 001 §2).
 */
import { Link } from 'wouter';

export function AuthRequiredScreen() {
  return (
    <main className="flex min-h-screen items-center justify-center bg-background p-6 text-fg">
      <section
        className="w-full max-w-md rounded border border-border bg-surface p-6 text-center"
        aria-labelledby="dm-auth-title"
      >
        <p aria-hidden="true" className="mb-3 text-3xl text-warning">
          [!]
        </p>
        <h1 id="dm-auth-title" className="mb-2 text-lg font-bold tracking-widest text-primary">
          AUTHENTICATION REQUIRED
        </h1>
        <p className="mb-6 text-sm text-muted">
          Direct messages require a valid cryptographic key for end-to-end encryption.
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
            [ RETURN TO PUBLIC CHAT ]
          </Link>
        </div>
      </section>
    </main>
  );
}
