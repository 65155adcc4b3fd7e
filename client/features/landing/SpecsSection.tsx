import { SPECS } from './landing-content.js';
import { PANEL, SECTION } from '../../ui/landing-styles.js';
import { SectionHeading } from './SectionHeading.js';

/** The technical numbers, straight from shared/constants.ts. */
export function SpecsSection() {
  return (
    <section id="specs" aria-labelledby="specs-heading" className={SECTION}>
      <SectionHeading
        id="specs-heading"
        index={4}
        label="Specs"
        lead="Standard primitives from WebCrypto and the @noble libraries, nothing home-made. Every number below is the one the code uses."
      />
      <dl className={`${PANEL} grid sm:grid-cols-2`}>
        {SPECS.map((spec) => (
          <div
            key={spec.label}
            className="flex flex-col gap-1 border-b border-border p-4 sm:p-5 sm:odd:border-r"
          >
            <dt className="text-xs font-bold uppercase tracking-[0.25em] text-muted">
              {spec.label}
            </dt>
            <dd className="text-base font-bold text-primary sm:text-lg">{spec.value}</dd>
            <dd className="text-xs leading-relaxed text-fg">{spec.detail}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
