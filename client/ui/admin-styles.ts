/** Class names the admin screens share, in the chat dialogs' terminal style. */

/** A text field. */
export const FIELD =
  'w-full border border-border bg-background px-3 py-2 text-sm text-fg placeholder:text-muted/70 focus:border-primary focus:outline-none disabled:opacity-60';

/** A field's label. */
export const LABEL = 'mb-1 block text-[0.75rem] font-bold tracking-[0.2em] text-primary uppercase';

/** A hint under a field. */
export const HINT = 'mt-1 text-[0.75rem] leading-snug text-muted';

/** A section heading inside a panel, without its colour. */
export const SECTION_TITLE_BASE = 'text-xs font-bold tracking-[0.25em] uppercase';

/** A section heading inside a panel. */
export const SECTION_TITLE = `${SECTION_TITLE_BASE} text-primary`;

/** A destructive bracketed button; utilities outrank `.sc-btn`'s component layer. */
export const DANGER_BUTTON =
  'sc-btn min-h-10 px-3 py-2 text-xs border-danger/70 bg-danger/10 text-danger hover:border-danger hover:bg-danger/20';

/** A compact bracketed button for table rows and toolbars. */
export const SMALL_BUTTON = 'sc-btn min-h-8 px-2 py-1 text-[0.75rem]';

/** The compact destructive variant. */
export const SMALL_DANGER_BUTTON =
  'sc-btn min-h-8 px-2 py-1 text-[0.75rem] border-danger/70 bg-danger/10 text-danger hover:border-danger hover:bg-danger/20';

/** Badge tones. */
export const BADGE_TONE = {
  danger: 'border-danger/70 text-danger',
  warning: 'border-warning/70 text-warning',
  accent: 'border-accent/60 text-accent',
  primary: 'border-primary/60 text-primary',
  muted: 'border-border text-muted',
} as const;

/** A small bordered label, upper-cased. */
export const BADGE = 'inline-block border px-1.5 py-0.5 text-[0.75rem] tracking-widest uppercase';

/** A small bordered label that keeps its letter case (field names). */
export const TAG = 'inline-block border px-1.5 py-0.5 text-[0.75rem] tracking-wide';
