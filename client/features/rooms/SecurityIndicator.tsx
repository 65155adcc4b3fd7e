/**
 * The header's security indicator (spec 000 §2): compact or full. Honest about the session: it
 * claims end-to-end encryption only while messages leave encrypted, whether the link itself is
 * TLS, and in red a certificate failure or a key substitution. The protection level (MAXIMUM …
 * BASIC) is the status bar's word: here it is only in the tooltip, named as there, so that the
 * header does not show a third level word beside the channel's clearance and the user's SEC_LVL.
 */
import { TEXT } from '../../../shared/protocol/errors.js';
import { Tooltip } from '../../ui/Tooltip.js';

export type SecurityIndicatorAlert = 'certificate' | 'key-substitution' | null;

export interface SecurityIndicatorProps {
  isEndToEnd: boolean;
  /** The page (and so the socket) came over HTTPS. */
  isSecureTransport: boolean;
  variant: 'compact' | 'full';
  /** Keys are still being agreed: messages wait rather than leave. */
  isWaiting?: boolean;
  /** The status bar's protection level (MAXIMUM … BASIC), for the tooltip. */
  level?: string | null;
  alert?: SecurityIndicatorAlert;
  /** The connection is down: it says so instead of ACTIVE (issue 35). */
  link?: 'reconnecting' | 'disconnected' | null;
}

const ALERT_TEXT: Record<Exclude<SecurityIndicatorAlert, null>, string> = {
  certificate: TEXT.certFail,
  'key-substitution': 'KEY SUBSTITUTION',
};

export function SecurityIndicator({
  isEndToEnd,
  isSecureTransport,
  variant,
  isWaiting = false,
  level = null,
  alert = null,
  link = null,
}: SecurityIndicatorProps) {
  const linkWord = link === 'reconnecting' ? 'RECONNECTING' : 'DISCONNECTED';
  const e2eText = link
    ? `E2E: ${linkWord}`
    : isWaiting
      ? 'E2E: KEYS...'
      : isEndToEnd
        ? 'E2E: ACTIVE'
        : 'E2E: PLAINTEXT';
  const explanation = link
    ? link === 'reconnecting'
      ? 'The connection is down and being restored: messages typed meanwhile wait for it and for the room keys.'
      : 'The connection is down: nothing is sent or received.'
    : isWaiting
      ? 'Room keys are being agreed; messages wait for them.'
      : isEndToEnd
        ? 'Messages are encrypted and signed in this browser before they are sent.'
        : 'End-to-end encryption is not active: messages are sent as PLAINTEXT and the server can read them.';
  const transport = isSecureTransport ? 'TLS' : 'NO TLS';
  const alertText = alert ? ALERT_TEXT[alert] : null;
  const isLive = isEndToEnd && !isWaiting && link === null;
  const tone = alert
    ? 'border-danger text-danger'
    : link === 'disconnected'
      ? 'border-danger text-danger'
      : isLive
        ? 'border-primary text-primary'
        : 'border-warning text-warning';
  return (
    <Tooltip
      content={`${explanation}${level ? ` Protection: ${level}.` : ''} Link: ${transport}.${
        alert === 'certificate' ? ` ${TEXT.certificateValidationFailed}.` : ''
      }${alert === 'key-substitution' ? ` ${TEXT.keySubstitutionDetected}.` : ''}`}
    >
      <button
        type="button"
        data-testid="security-indicator"
        data-variant={variant}
        className={`inline-flex items-center gap-1.5 border px-1.5 py-0.5 text-xs font-bold tracking-widest whitespace-nowrap ${tone}`}
      >
        <span aria-hidden="true">{alert ? '▲' : isLive ? '■' : '◌'}</span>
        <span>
          {variant === 'compact'
            ? (alertText ?? (link ? linkWord : isWaiting ? 'KEYS...' : 'E2E'))
            : e2eText}
        </span>
        {variant === 'full' && alertText ? (
          <span>
            <span aria-hidden="true">· </span>
            {alertText}
          </span>
        ) : null}
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
