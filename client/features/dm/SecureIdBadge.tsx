/**
 * The fixed 'YOUR SECURE ID' badge with COPY (spec 001 §2, §8): 'Copied / Secure ID copied to
 * clipboard' for 2 s, or 'Copy Failed / Could not copy to clipboard'.
 */
import { TEXT } from '../../../shared/protocol/errors.js';
import { toast } from '../../ui/use-toast.js';
import { DM_COPIED_TOAST_MS } from './dm-constants.js';

async function copySecureId(secureId: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(secureId);
    toast({
      title: TEXT.dmCopiedTitle,
      description: TEXT.dmSecureIdCopied,
      variant: 'success',
      duration: DM_COPIED_TOAST_MS,
    });
  } catch {
    toast({
      title: TEXT.copyFailed,
      description: TEXT.copyFailedDescription,
      variant: 'destructive',
    });
  }
}

export function SecureIdBadge({ secureId }: { secureId: string }) {
  return (
    <aside
      aria-label="Your secure ID"
      data-testid="dm-my-secure-id"
      className="sc-panel fixed bottom-3 left-3 z-20 flex items-center gap-3 px-3 py-2"
    >
      <div className="min-w-0">
        <p className="text-xs tracking-[0.25em] text-muted">YOUR SECURE ID</p>
        <p
          className="sc-glow text-sm font-bold tracking-widest text-primary"
          data-testid="dm-my-secure-id-value"
        >
          {secureId}
        </p>
      </div>
      <button
        type="button"
        onClick={() => void copySecureId(secureId)}
        className="sc-btn min-h-8 px-2 py-1 text-xs"
        aria-label={`Copy your secure ID ${secureId}`}
        data-testid="dm-copy-secure-id"
      >
        COPY
      </button>
    </aside>
  );
}
