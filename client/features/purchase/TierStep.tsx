/** Step 1: choose a tier (spec 001 §2, §3). */
import { BUTTON_PRIMARY, PANEL } from '../../ui/landing-styles.js';
import { TIERS, TIERS_NOTE, type Tier } from './tiers.js';

export function TierStep({
  selected,
  onChoose,
}: {
  selected: Tier | null;
  onChoose: (tier: Tier) => void;
}) {
  return (
    <section aria-labelledby="tier-heading">
      <h2 id="tier-heading" className="mb-4 text-sm font-bold tracking-[0.25em] text-primary">
        STEP 1 // CHOOSE A TIER
      </h2>
      <p className="mb-4 text-xs text-muted" data-testid="tiers-note">
        {TIERS_NOTE}
      </p>
      <ul className="grid gap-4 md:grid-cols-3">
        {TIERS.map((tier) => (
          <li
            key={tier.id}
            className={`${PANEL} flex flex-col p-5 ${selected?.id === tier.id ? 'border-primary' : ''}`}
            data-testid={`tier-${tier.id}`}
          >
            <p className="mb-1 text-xs tracking-[0.3em] text-muted">
              RECORDED LEVEL: {tier.securityLevel}
            </p>
            <h3 className="mb-2 text-base font-bold tracking-[0.2em] text-primary">{tier.name}</h3>
            <p className="mb-3 text-3xl text-accent">
              ${tier.minAmountUsd}
              <span className="ml-1 text-xs text-muted">USD minimum</span>
            </p>
            <p className="mb-3 text-xs text-muted">{tier.description}</p>
            <ul className="mb-5 flex-1 space-y-1 text-xs text-fg">
              {tier.features.map((feature) => (
                <li key={feature}>
                  <span className="text-primary">&gt; </span>
                  {feature}
                </li>
              ))}
            </ul>
            <p className="mb-4 text-xs text-accent" data-testid={`tier-${tier.id}-difference`}>
              {tier.difference}
            </p>
            <button
              type="button"
              className={BUTTON_PRIMARY}
              onClick={() => onChoose(tier)}
              data-testid={`choose-${tier.id}`}
            >
              SELECT {tier.id.toUpperCase()}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
