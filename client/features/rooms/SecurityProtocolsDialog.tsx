/**
 * The Security Protocols modal (spec 000 §2): the state of each protection and of the session.
 * The dialog only renders; `useSecurityProtocols` decides what is true, or a caller passes
 * `state` itself (tests, or a container that already has it).
 */
import { useId, type ReactNode } from 'react';
import {
  PROTOCOL_STATE_LABEL,
  type ProtocolState,
  type SecurityProtocolsState,
} from './security-protocols.js';
import { Bracketed, DIALOG_BUTTON, TerminalDialog } from '../../ui/TerminalDialog.js';
import { useSecurityProtocols } from './use-security-protocols.js';

export interface SecurityProtocolsDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /**
   * The chat's cipher is end-to-end (MessageCipher.isEndToEnd). By default it is the room's live
   * state (RoomE2eeContext), or false (PENDING) outside a room.
   */
  isEndToEnd?: boolean;
}

const STATE_CLASS: Record<ProtocolState, string> = {
  active: 'border-primary/70 text-primary',
  pending: 'border-warning/70 text-warning',
  inactive: 'border-border text-muted',
  warning: 'border-orange/70 text-orange',
};

export function SecurityProtocolsDialog({
  open,
  onOpenChange,
  isEndToEnd,
}: SecurityProtocolsDialogProps) {
  const state = useSecurityProtocols({ isEndToEnd });
  return (
    <TerminalDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Security protocols"
      description="What protects this session right now, and what is not active yet."
      windowLabel="root@securechannel:~/security"
      widthClass="max-w-2xl"
      testId="security-protocols-dialog"
    >
      <SecurityProtocolsView state={state} />
      <div className="mt-4 flex justify-end">
        <button type="button" className={DIALOG_BUTTON} onClick={() => onOpenChange(false)}>
          <Bracketed>CLOSE</Bracketed>
        </button>
      </div>
    </TerminalDialog>
  );
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted">{term}</dt>
      <dd className="break-words text-fg">{children}</dd>
    </>
  );
}

/** The protocols and session of `state`, with no data of its own. */
export function SecurityProtocolsView({ state }: { state: SecurityProtocolsState }) {
  const { protocols, session } = state;
  const headingId = useId();
  return (
    <div className="space-y-4">
      <ul className="space-y-2" aria-label="Protocols">
        {protocols.map((protocol) => (
          <li
            key={protocol.id}
            className="border border-border bg-background p-2.5"
            data-testid={`protocol-${protocol.id}`}
          >
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span className="text-xs font-bold tracking-[0.15em] text-fg uppercase">
                {protocol.name}
              </span>
              <span
                className={`border px-1.5 py-0.5 text-xs font-bold tracking-[0.2em] ${STATE_CLASS[protocol.state]}`}
                data-testid={`protocol-${protocol.id}-state`}
              >
                {PROTOCOL_STATE_LABEL[protocol.state]}
              </span>
            </div>
            <p className="mt-1 text-xs leading-snug text-muted">{protocol.detail}</p>
          </li>
        ))}
      </ul>

      <section aria-labelledby={headingId} className="border border-border p-3">
        <h3 id={headingId} className="text-xs font-bold tracking-[0.2em] text-primary uppercase">
          Session
        </h3>
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
          <Row term="AUTH">{session.mode === 'key' ? 'AUTHENTICATED' : 'PUBLIC'}</Row>
          <Row term="IDENTITY">
            <span data-testid="security-session-identity">{session.identity}</span>
          </Row>
          <Row term="SEC_LVL">
            <span className="text-accent">{session.level}</span>
          </Row>
          {session.securityLabel ? (
            <Row term="PROTECTION">
              <span className="text-accent" data-testid="security-session-label">
                {session.securityLabel}
              </span>
            </Row>
          ) : null}
          {session.keySecureId ? <Row term="KEY">{session.keySecureId}</Row> : null}
          {session.mode === 'key' ? (
            <Row term="KEY EXPIRES">
              {session.keyExpires ? (
                <time dateTime={session.keyExpires}>
                  {new Date(session.keyExpires).toLocaleString()}
                </time>
              ) : (
                'NEVER'
              )}
            </Row>
          ) : null}
          <Row term="SESSION">{session.sessionExpiry}</Row>
        </dl>
      </section>
    </div>
  );
}
