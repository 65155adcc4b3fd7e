/** The footer line: AUTH_STATUS with the name, a regenerate-callsign button, SEC_LVL (spec 000 §2). */
import { Tooltip } from '../../ui/Tooltip.js';

export interface AuthStatusLineProps {
  username: string;
  /** The key's level for key holders; null shows PUBLIC. */
  securityLevel: string | null;
  onRegenerate: (() => void) | null;
}

export function AuthStatusLine({ username, securityLevel, onRegenerate }: AuthStatusLineProps) {
  return (
    <div
      className="flex flex-wrap items-center gap-x-4 gap-y-1 border-t border-border bg-surface px-3 py-1 text-[11px] tracking-wider text-muted"
      data-testid="auth-status-line"
    >
      <span>
        AUTH_STATUS:{' '}
        <span className="text-primary" data-testid="auth-username">
          {username}
        </span>
      </span>
      {onRegenerate && (
        <Tooltip content="Generate a new random callsign">
          <button
            type="button"
            onClick={onRegenerate}
            className="rounded border border-border px-1.5 text-primary hover:bg-primary/10"
            data-testid="regenerate-callsign"
          >
            <span aria-hidden="true">↻ </span>NEW ID
            <span className="sr-only"> (regenerate callsign)</span>
          </button>
        </Tooltip>
      )}
      <span>
        SEC_LVL:{' '}
        <span className="text-accent" data-testid="sec-level">
          {securityLevel?.toUpperCase() ?? 'PUBLIC'}
        </span>
      </span>
    </div>
  );
}
