import { Link } from 'wouter';
import { DEFAULT_MESSAGE_TTL_SECONDS } from '../../../shared/constants.js';

/** Page footer: what the product is, and the two ways on. */
export function LandingFooter() {
  return (
    <footer className="border-t border-border bg-surface/60">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 text-xs text-muted sm:flex-row sm:items-end sm:justify-between sm:px-6">
        <div className="space-y-1">
          <p className="font-bold uppercase tracking-[0.25em] text-primary">SecureChannel</p>
          <p>
            Self-hostable secure chat. Encrypted in your browser, gone from the server in{' '}
            {DEFAULT_MESSAGE_TTL_SECONDS} s.
          </p>
          <p aria-hidden="true">
            &gt; EOF<span className="animate-pulse">_</span>
          </p>
        </div>
        <ul className="flex gap-4 uppercase tracking-[0.2em]">
          <li>
            <Link href="/get-key" className="hover:text-primary">
              Get a key
            </Link>
          </li>
          <li>
            <a href="#top" className="hover:text-primary">
              Back to top
            </a>
          </li>
        </ul>
      </div>
    </footer>
  );
}
