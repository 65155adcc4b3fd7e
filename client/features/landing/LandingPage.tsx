/**
 * The landing page (spec 001 §2): the two ways in, then what the product does, how it compares
 * and its numbers. Reachable with or without an access mode.
 */
import { Suspense, useCallback } from 'react';
import { useLocation } from 'wouter';
import { lazyComponent } from '../../lib/lazy-component.js';
import { setAccessMode } from '../../lib/session/access-mode.js';
import { loadTorVisitorStatus } from '../tor/index.js';
import { AccessSection } from './AccessSection.js';
import { ComparisonTable } from './ComparisonTable.js';
import { FeaturesSection } from './FeaturesSection.js';
import { LandingFooter } from './LandingFooter.js';
import { LandingHero } from './LandingHero.js';
import { LandingNav } from './LandingNav.js';
import { SpecsSection } from './SpecsSection.js';
import { useLandingKeyUpload } from './use-landing-key-upload.js';

/** The onion address for every visitor while this server's onion service is up (issue 37). */
const TorVisitorStatus = lazyComponent(() => loadTorVisitorStatus(), 'TorVisitorStatus');

export function LandingPage() {
  const [, navigate] = useLocation();
  const upload = useLandingKeyUpload();

  // `/` fetches the default room and redirects to /chat/{secureId} (spec 000 §2).
  const enterPublic = useCallback(() => {
    setAccessMode('public');
    navigate('/');
  }, [navigate]);

  return (
    <div id="top" className="relative isolate min-h-screen bg-background font-mono text-fg">
      <div
        aria-hidden="true"
        className="pointer-events-none fixed inset-0 -z-10 bg-[repeating-linear-gradient(0deg,transparent_0,transparent_2px,color-mix(in_srgb,var(--sc-primary)_5%,transparent)_3px,transparent_4px)]"
      />
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 top-0 -z-10 h-[32rem] bg-[radial-gradient(ellipse_at_top,color-mix(in_srgb,var(--sc-primary)_14%,transparent),transparent_65%)]"
      />
      <LandingNav />
      <main
        id="main"
        tabIndex={-1}
        className="focus:outline-none mx-auto flex max-w-6xl flex-col gap-16 sm:gap-20 px-4 pb-20 sm:px-6"
      >
        <LandingHero />
        <Suspense fallback={null}>
          <TorVisitorStatus variant="card" />
        </Suspense>
        <AccessSection onEnterPublic={enterPublic} upload={upload} />
        <FeaturesSection />
        <ComparisonTable />
        <SpecsSection />
      </main>
      <LandingFooter />
    </div>
  );
}
