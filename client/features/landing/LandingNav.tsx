import { ThemeSelector } from '../themes/index.js';
import { LANDING_SECTIONS } from './landing-content.js';
import { GLOW_TEXT } from '../../ui/landing-styles.js';

/** Sticky top bar: product name, in-page anchors (spec 001 §2) and the compact theme switch. */
export function LandingNav() {
  return (
    <header className="z-20 border-b border-border bg-background/90 backdrop-blur md:sticky md:top-0">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-3 focus:z-30 focus:bg-background focus:px-3 focus:py-2 focus:text-primary"
      >
        Skip to content
      </a>
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3 sm:px-6">
        <a
          href="#top"
          className={`flex items-center gap-2 text-sm font-bold uppercase tracking-[0.25em] text-primary ${GLOW_TEXT}`}
        >
          <span aria-hidden="true" className="text-accent">
            {'>_'}
          </span>
          SecureChannel
        </a>
        <nav aria-label="Page sections" className="w-full md:w-auto md:flex-1">
          <ul className="-mx-1.5 flex flex-wrap gap-x-1 gap-y-1 text-xs sm:mx-0 sm:text-sm">
            {LANDING_SECTIONS.map((section) => (
              <li key={section.id}>
                <a
                  href={`#${section.id}`}
                  className="inline-block px-1.5 py-1.5 uppercase tracking-[0.12em] sm:px-2 sm:tracking-[0.2em] text-muted transition-colors hover:text-primary focus-visible:text-primary"
                >
                  {section.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="md:ml-auto">
          <ThemeSelector variant="compact" />
        </div>
      </div>
    </header>
  );
}
