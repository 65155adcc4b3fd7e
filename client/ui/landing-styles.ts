/**
 * Class lists shared by the landing page's parts. Every colour is a theme variable, so the six
 * themes restyle the page; the glow is a blurred copy of the theme's own primary colour.
 */

/** Soft phosphor glow behind headings. */
export const GLOW_TEXT =
  '[text-shadow:0_0_12px_color-mix(in_srgb,var(--sc-primary)_55%,transparent)]';

/** A terminal panel: thin border, surface fill, faint halo. */
export const PANEL = 'border border-border bg-surface shadow-[0_0_40px_-20px_var(--sc-primary)]';

const BUTTON_BASE =
  'inline-flex min-h-11 items-center justify-center gap-2 border px-4 py-2 text-sm font-bold uppercase tracking-[0.18em] transition-colors duration-150 disabled:cursor-not-allowed disabled:opacity-45';

/** The main action of a card. */
export const BUTTON_PRIMARY = `${BUTTON_BASE} border-primary bg-primary/10 text-primary shadow-[0_0_18px_-8px_var(--sc-primary)] hover:enabled:bg-primary hover:enabled:text-background`;

/** A secondary action or a link styled as a button. */
export const BUTTON_SECONDARY = `${BUTTON_BASE} border-border bg-transparent text-fg hover:border-primary hover:text-primary`;

/** Lets in-page anchors land below the header, which is sticky from the md breakpoint. */
export const SECTION = 'scroll-mt-6 md:scroll-mt-24';
