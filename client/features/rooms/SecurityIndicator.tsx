/**
 * The header's security indicator (spec 000 §2), honest about this build: it claims end-to-end
 * encryption only when the message cipher provides it, and says whether the link itself is TLS.
 */
import { Tooltip } from '../../ui/Tooltip.js';

export interface SecurityIndicatorProps {
  isEndToEnd: boolean;
  /** The page (and so the socket) came over HTTPS. */
  isSecureTransport: boolean;
  variant: 'compact' | 'full';
}

export function SecurityIndicator({
  isEndToEnd,
  isSecureTransport,
  variant,
}: SecurityIndicatorProps) {
  const e2eText = isEndToEnd ? 'E2E: ACTIVE' : 'E2E: PENDING';
  const explanation = isEndToEnd
    ? 'Messages are encrypted in this browser before they are sent.'
    : 'End-to-end encryption is not active yet: messages are sent as PLAINTEXT and the server can read them.';
  const transport = isSecureTransport ? 'TLS' : 'NO TLS';
  return (
    <Tooltip content={`${explanation} Link: ${transport}.`}>
      <button
        type="button"
        data-testid="security-indicator"
        className={`inline-flex items-center gap-1.5 border px-1.5 py-0.5 text-[10px] font-bold tracking-widest ${
          isEndToEnd ? 'border-primary text-primary' : 'border-warning text-warning'
        }`}
      >
        <span aria-hidden="true">{isEndToEnd ? '■' : '▲'}</span>
        <span>{e2eText}</span>
        {variant === 'full' ? (
          <span className={isSecureTransport ? 'text-primary' : 'text-muted'}>
            <span aria-hidden="true">· </span>
            {transport}
          </span>
        ) : null}
        <span className="sr-only">. {explanation}</span>
      </button>
    </Tooltip>
  );
}
