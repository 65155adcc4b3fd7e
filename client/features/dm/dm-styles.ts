/** Class strings the direct-messages components share (theme colours only). */

/** A compact header button: `[ ← BACK ]`. */
export const HEADER_BUTTON =
  'inline-flex min-h-9 items-center gap-1.5 border border-border px-2.5 py-1 text-xs font-bold tracking-widest text-primary hover:bg-primary/10 disabled:cursor-not-allowed disabled:opacity-50';

/** The primary action. */
export const PRIMARY_BUTTON = 'sc-btn min-h-10 px-3 py-2 text-xs font-bold';

/** The red KILL SWITCH (utilities outrank `.sc-btn`'s component layer). */
export const DANGER_BUTTON =
  'sc-btn min-h-9 gap-1 border-danger bg-danger/15 px-2 py-1.5 text-xs font-bold tracking-wider text-danger hover:border-danger hover:bg-danger/30 hover:shadow-[0_0_14px_var(--sc-danger)] sm:gap-2 sm:px-3 sm:tracking-[0.12em]';

/** A field label above an input. */
export const FIELD_LABEL = 'mb-1 block text-xs font-bold tracking-[0.2em] text-primary uppercase';

/** Inputs, selects and textareas. */
export const FIELD =
  'w-full border border-border bg-background px-3 py-2 text-sm text-fg placeholder:text-muted/70 focus:border-primary focus:outline-none disabled:opacity-60';
