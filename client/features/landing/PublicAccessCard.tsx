import { TEXT } from '../../../shared/protocol/errors.js';
import { useId } from 'react';
import { Bracketed } from './Bracketed.js';
import { CardBar } from './CardBar.js';
import { FeatureBullet } from './FeatureBullet.js';
import { BUTTON_PRIMARY, PANEL } from '../../ui/landing-styles.js';

/** The PUBLIC ACCESS card (spec 001 §2): one button into the public channel. */
export function PublicAccessCard({ onEnter }: { onEnter: () => void }) {
  const headingId = useId();
  return (
    <article aria-labelledby={headingId} className={`${PANEL} flex flex-col`}>
      <CardBar index="01" state="OPEN" />
      <div className="flex flex-1 flex-col gap-5 p-5 sm:p-6">
        <h3 id={headingId} className="text-base font-bold uppercase tracking-[0.2em] text-primary">
          {TEXT.publicAccess}
        </h3>
        <p className="text-sm leading-relaxed text-fg">
          Enter the public channel now. No signup, no key, no phone number: you get a random
          callsign that is kept only in this browser.
        </p>
        <ul className="space-y-1.5 text-sm text-fg">
          <FeatureBullet>Random callsign, regenerate it at any time</FeatureBullet>
          <FeatureBullet>Messages encrypted in your browser</FeatureBullet>
          <FeatureBullet>Everything gone from the server in about 30 s</FeatureBullet>
        </ul>
        <div className="mt-auto">
          <button
            type="button"
            onClick={onEnter}
            data-testid="landing-enter-public"
            className={`${BUTTON_PRIMARY} w-full`}
          >
            <Bracketed>{TEXT.enterPublicChannel}</Bracketed>
          </button>
        </div>
      </div>
    </article>
  );
}
