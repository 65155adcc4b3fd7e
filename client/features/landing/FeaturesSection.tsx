import { FEATURES } from './landing-content.js';
import { PANEL, SECTION } from '../../ui/landing-styles.js';
import { SectionHeading } from './SectionHeading.js';

/** What SecureChannel does, one card per capability. */
export function FeaturesSection() {
  return (
    <section id="features" aria-labelledby="features-heading" className={SECTION}>
      <SectionHeading
        id="features-heading"
        index={2}
        label="Features"
        lead="A chat built around one rule: the server relays what you say but cannot read it, and does not keep it."
      />
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {FEATURES.map((feature, index) => (
          <li
            key={feature.title}
            className={`${PANEL} flex flex-col gap-3 p-5 transition-colors hover:border-primary ${index === FEATURES.length - 1 && FEATURES.length % 3 === 1 ? 'lg:col-span-full' : ''}`}
          >
            <span aria-hidden="true" className="text-xs text-muted">
              0x{(index + 1).toString(16).padStart(2, '0').toUpperCase()}
            </span>
            <h3 className="text-sm font-bold uppercase tracking-[0.15em] text-primary">
              {feature.title}
            </h3>
            <p className="text-sm leading-relaxed text-fg">{feature.body}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
