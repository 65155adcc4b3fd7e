import { GLOW_TEXT } from '../../ui/landing-styles.js';

/** The heading of a landing section: `01 // ACCESS ─────`, with the number as decoration. */
export function SectionHeading({
  id,
  index,
  label,
  lead,
}: {
  /** Id of the h2, referenced by the section's aria-labelledby. */
  id: string;
  index: number;
  label: string;
  lead: string;
}) {
  return (
    <div className="mb-8">
      <div className="flex items-center gap-3">
        <span aria-hidden="true" className="text-xs text-muted">
          {String(index).padStart(2, '0')} {'//'}
        </span>
        <h2
          id={id}
          className={`text-lg font-bold uppercase tracking-[0.3em] text-primary sm:text-xl ${GLOW_TEXT}`}
        >
          {label}
        </h2>
        <span aria-hidden="true" className="h-px flex-1 bg-border" />
      </div>
      <p className="mt-3 max-w-3xl text-sm leading-relaxed text-muted">{lead}</p>
    </div>
  );
}
