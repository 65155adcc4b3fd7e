import { KeyFileCard } from './KeyFileCard.js';
import { SECTION } from '../../ui/landing-styles.js';
import { PublicAccessCard } from './PublicAccessCard.js';
import { SectionHeading } from './SectionHeading.js';
import { type LandingKeyUpload } from './use-landing-key-upload.js';

/** The two ways in (spec 001 §2): public on the left, key file on the right. */
export function AccessSection({
  onEnterPublic,
  upload,
}: {
  onEnterPublic: () => void;
  upload: LandingKeyUpload;
}) {
  return (
    <section id="access" aria-labelledby="access-heading" className={SECTION}>
      <SectionHeading
        id="access-heading"
        index={1}
        label="Access"
        lead="Two ways in. Walk into the public channel as an anonymous callsign, or log in with a key file."
      />
      <div className="grid gap-6 md:grid-cols-2">
        <PublicAccessCard onEnter={onEnterPublic} />
        <KeyFileCard upload={upload} />
      </div>
    </section>
  );
}
