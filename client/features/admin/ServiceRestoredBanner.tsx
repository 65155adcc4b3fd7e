/** What a notice page shows once the service is back, before it returns the user to where they were. */
import { TEXT } from '../../../shared/protocol/errors.js';

export function ServiceRestoredBanner({ message }: { message: string }) {
  return (
    <div
      role="status"
      aria-live="assertive"
      className="border border-primary bg-primary/10 p-4 text-center shadow-[0_0_40px_-16px_var(--sc-primary)]"
      data-testid="service-restored"
    >
      <p className="sc-glow text-xl font-bold tracking-[0.25em] text-primary uppercase">
        {TEXT.serviceRestored}
      </p>
      <p className="mt-2 text-xs text-fg">{message}</p>
      <p className="mt-1 text-[0.75rem] tracking-[0.2em] text-muted uppercase">
        Returning you to where you were...
      </p>
    </div>
  );
}
