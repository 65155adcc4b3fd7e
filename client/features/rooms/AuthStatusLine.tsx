/**
 * The footer line: AUTH_STATUS with the name, a regenerate-callsign button, SEC_LVL (spec 000 §2)
 * and, for a public visitor, the prompt to get a key with its link to /get-key (spec 000 §2
 * "/get-key … linked as the upgrade path for public users", §6).
 */
import { Link } from 'wouter';
import { Tooltip } from '../../ui/Tooltip.js';

/** The public visitor's prompt beside the link (the spec names /get-key as the way to access). */
export const GET_KEY_PROMPT =
  'Direct messages and /pong need a key: use /get-key to obtain access.';

export interface AuthStatusLineProps {
  username: string;
  /** The key's level for key holders; null shows PUBLIC. */
  securityLevel: string | null;
  onRegenerate: (() => void) | null;
}

export function AuthStatusLine({ username, securityLevel, onRegenerate }: AuthStatusLineProps) {
  return (
    <div
      className="flex flex-wrap items-center gap-x-4 gap-y-1 border-t border-border bg-surface px-3 py-1 text-xs tracking-wider text-muted"
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
      {securityLevel === null ? (
        <span className="flex flex-wrap items-center gap-2" data-testid="get-key-prompt">
          <span>{GET_KEY_PROMPT}</span>
          <Link
            href="/get-key"
            className="rounded border border-primary px-1.5 text-primary hover:bg-primary/10"
            data-testid="get-key-link"
          >
            [ GET A KEY ]
          </Link>
        </span>
      ) : null}
    </div>
  );
}
