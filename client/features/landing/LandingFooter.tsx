import { Suspense, useState } from 'react';
import { Link } from 'wouter';
import { DEFAULT_MESSAGE_TTL_SECONDS } from '../../../shared/constants.js';
import { lazyComponent } from '../../lib/lazy-component.js';
import { loadAdminAccessDialog } from '../admin/index.js';

// The admin dialog (password gate, key generation) is fetched when it is first opened.
const AdminAccessDialog = lazyComponent(loadAdminAccessDialog, 'AdminAccessDialog');

/**
 * Page footer: what the product is, the two ways on, and ADMIN: the operator's way to the first
 * admin key with the admin password (issue 33).
 */
export function LandingFooter() {
  const [isAdminOpen, setAdminOpen] = useState(false);
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
          <li>
            <button
              type="button"
              className="uppercase tracking-[0.2em] hover:text-primary"
              onClick={() => setAdminOpen(true)}
              data-testid="landing-admin"
            >
              Admin
            </button>
          </li>
        </ul>
      </div>
      {isAdminOpen ? (
        <Suspense fallback={null}>
          <AdminAccessDialog open={isAdminOpen} onOpenChange={setAdminOpen} />
        </Suspense>
      ) : null}
    </footer>
  );
}
