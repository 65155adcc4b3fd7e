/**
 * The emergency admin panel (spec 001 §2, §4 "Emergency panel", §5, §8): a password gate, then the
 * system status (unknown, operational, emergency), an emergency shutdown that needs a reason,
 * and restore, after which the page reloads in 1 s.
 *
 * The password is exchanged at once for a ten-minute admin session token (admin-session.ts,
 * memory only); shutdown and restore then carry that token as a bearer, so the password is not
 * kept. Lockout feedback is the server's 429 text, with a live countdown.
 *
 * Whoever may shut down may restore (issue 21): on the notice pages (`allowAdminKey`) a signed-in
 * key holder whose level is admin acts with their key's session and needs no password.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { TEXT } from '../../../shared/protocol/errors.js';
import { type ServiceStatus } from '../../../shared/protocol/http/admin.js';
import {
  Bracketed,
  DIALOG_BUTTON,
  DIALOG_BUTTON_SECONDARY,
  TerminalDialog,
} from '../../ui/TerminalDialog.js';
import {
  AdminApiError,
  emergencyShutdown,
  fetchServiceStatus,
  restoreService,
  type AdminCredential,
  type AdminSessionGrant,
} from '../../lib/admin/admin-api.js';
import { adminQueryKeys } from './admin-queries.js';
import { clearAdminSession, useAdminSession } from '../../lib/admin/admin-session.js';
import {
  BADGE,
  BADGE_TONE,
  DANGER_BUTTON,
  FIELD,
  LABEL,
  SECTION_TITLE,
  SECTION_TITLE_BASE,
} from '../../ui/admin-styles.js';
import { formatSessionLeft } from '../../lib/admin/lockout.js';
import { useNow } from '../../lib/use-now.js';
import { AdminPasswordGate } from '../../ui/AdminPasswordGate.js';
import { useAuth } from '../../lib/session/use-auth.js';

/** The page reloads this long after a successful restore (spec 001 §4). */
export const RESTORE_RELOAD_MS = 1000;

export interface EmergencyAdminPanelProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where to go after a restore (a full load); null reloads the current page. */
  afterRestorePath?: string | null;
  /**
   * The notice pages: a signed-in admin key holder acts with the key's session, without the
   * password. There the service is down and restore is what is offered: whoever may shut down
   * may restore (issue 21). In the admin panel the password gate stays (spec 001 §2).
   */
  allowAdminKey?: boolean;
}

export function EmergencyAdminPanel({
  open,
  onOpenChange,
  afterRestorePath = null,
  allowAdminKey = false,
}: EmergencyAdminPanelProps) {
  const passwordSession = useAdminSession();
  const { user } = useAuth();
  const isAdminKey = allowAdminKey && user?.permissions.level === 'admin';
  const session = passwordSession ?? (isAdminKey ? 'admin-key' : null);
  return (
    <TerminalDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Emergency admin panel"
      description={
        session
          ? 'Service status, emergency shutdown and restore. Every action is written to the audit log.'
          : 'Enter the admin password to open a ten-minute admin session.'
      }
      windowLabel="root@securechannel:~/emergency"
      tone="danger"
      status={
        <span
          className={session ? 'text-primary' : 'text-danger'}
          data-testid="emergency-panel-state"
        >
          {session ? 'AUTHENTICATED' : 'LOCKED'}
        </span>
      }
      widthClass="max-w-xl"
      testId="emergency-panel"
    >
      {session ? (
        <EmergencyControls
          session={session === 'admin-key' ? null : session}
          afterRestorePath={afterRestorePath}
        />
      ) : (
        <AdminPasswordGate testIdPrefix="emergency" />
      )}
    </TerminalDialog>
  );
}

type SystemState = 'unknown' | ServiceStatus['status'];

const STATE_TONE: Record<SystemState, string> = {
  unknown: 'text-muted',
  operational: 'text-primary',
  emergency: 'text-danger',
};

type Phase = 'idle' | 'confirm' | 'shutting-down' | 'restoring' | 'restored';

function EmergencyControls({
  session,
  afterRestorePath,
}: {
  /** The password login's session; null when acting with the signed-in admin key. */
  session: AdminSessionGrant | null;
  afterRestorePath: string | null;
}) {
  const ids = useId();
  const queryClient = useQueryClient();
  const now = useNow(1000);
  const credential: AdminCredential = session
    ? { kind: 'admin-session', token: session.sessionToken }
    : { kind: 'key-session' };
  const statusQuery = useQuery({
    queryKey: adminQueryKeys.serviceStatus,
    queryFn: () => fetchServiceStatus(credential),
    staleTime: 0,
  });
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>('idle');
  const [outcome, setOutcome] = useState<{ text: string; isError: boolean } | null>(null);
  const reloadTimer = useRef<number | null>(null);

  useEffect(
    () => () => {
      if (reloadTimer.current !== null) window.clearTimeout(reloadTimer.current);
    },
    [],
  );

  const state: SystemState = statusQuery.data?.status ?? 'unknown';
  const status = statusQuery.data ?? null;
  const isWorking = phase === 'shutting-down' || phase === 'restoring' || phase === 'restored';

  const fail = (error: unknown) => {
    const text = error instanceof Error ? error.message : TEXT.adminAuthenticationError;
    setOutcome({ text, isError: true });
    setPhase('idle');
    // The server no longer accepts the session (expired or swept): back to the password gate.
    if (session && error instanceof AdminApiError && error.status === 401) clearAdminSession();
  };

  const armShutdown = () => {
    if (reason.trim() === '') {
      setReasonError(TEXT.shutdownReasonRequired);
      return;
    }
    setReasonError(null);
    setOutcome(null);
    setPhase('confirm');
  };

  const shutdown = async () => {
    setPhase('shutting-down');
    try {
      const answer = await emergencyShutdown(reason.trim(), credential);
      setOutcome({
        text: answer.alreadyInEffect
          ? answer.message
          : `${answer.message} ${answer.usersDisconnected} connection${answer.usersDisconnected === 1 ? '' : 's'} closed.`,
        isError: false,
      });
      setReason('');
      setPhase('idle');
    } catch (error) {
      fail(error);
    }
    void queryClient.invalidateQueries({ queryKey: adminQueryKeys.serviceStatus });
  };

  const restore = async () => {
    setPhase('restoring');
    setOutcome(null);
    try {
      const answer = await restoreService(credential);
      setOutcome({ text: `${answer.message} Reloading in 1 s...`, isError: false });
      setPhase('restored');
      void queryClient.invalidateQueries({ queryKey: adminQueryKeys.serviceStatus });
      reloadTimer.current = window.setTimeout(() => {
        if (afterRestorePath) window.location.assign(afterRestorePath);
        else window.location.reload();
      }, RESTORE_RELOAD_MS);
    } catch (error) {
      fail(error);
    }
  };

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-2 text-[0.75rem] tracking-[0.2em] text-muted uppercase">
        {session ? (
          <>
            <span>
              Admin session ·{' '}
              <span className="text-fg" data-testid="emergency-session-left">
                {formatSessionLeft(session.expiresAt, now)}
              </span>{' '}
              left
            </span>
            <button type="button" className={DIALOG_BUTTON_SECONDARY} onClick={clearAdminSession}>
              <Bracketed>LOCK</Bracketed>
            </button>
          </>
        ) : (
          <span data-testid="emergency-key-credential">
            Acting with your <span className="text-danger">admin key</span>
          </span>
        )}
      </div>

      <section aria-labelledby={`${ids}-status`} className="border border-border bg-background p-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 id={`${ids}-status`} className={SECTION_TITLE}>
            System status
          </h3>
          <button
            type="button"
            className={DIALOG_BUTTON_SECONDARY}
            onClick={() => void statusQuery.refetch()}
            disabled={statusQuery.isFetching}
            data-testid="emergency-refresh-status"
          >
            <Bracketed>{statusQuery.isFetching ? 'CHECKING...' : 'REFRESH'}</Bracketed>
          </button>
        </div>
        <p
          role="status"
          className={`sc-glow mt-3 text-2xl font-bold tracking-[0.2em] uppercase ${STATE_TONE[state]}`}
          data-testid="emergency-system-status"
        >
          {state}
        </p>
        {statusQuery.isError ? (
          <p className="mt-1 text-xs text-danger">
            Status unavailable: {statusQuery.error.message}
          </p>
        ) : null}
        {status ? (
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-xs">
            <dt className="text-muted">CONNECTIONS</dt>
            <dd className="text-fg">{status.connections}</dd>
            {status.reason ? (
              <>
                <dt className="text-muted">REASON</dt>
                <dd className="break-words text-warning">{status.reason}</dd>
              </>
            ) : null}
            {status.since ? (
              <>
                <dt className="text-muted">SINCE</dt>
                <dd className="text-fg">{status.since.replace('T', ' ').slice(0, 19)} UTC</dd>
              </>
            ) : null}
          </dl>
        ) : null}
      </section>

      {outcome ? (
        <p
          role={outcome.isError ? 'alert' : 'status'}
          className={`border p-3 text-xs ${outcome.isError ? 'border-danger/70 bg-danger/10 font-bold text-danger' : 'border-primary/60 bg-primary/10 text-primary'}`}
          data-testid="emergency-outcome"
        >
          {outcome.text}
        </p>
      ) : null}

      {state !== 'emergency' ? (
        <section
          aria-labelledby={`${ids}-shutdown`}
          className="space-y-3 border border-danger/50 p-4"
        >
          <h3 id={`${ids}-shutdown`} className={`${SECTION_TITLE_BASE} text-danger`}>
            Emergency shutdown
          </h3>
          <div>
            <label htmlFor={`${ids}-reason`} className={LABEL}>
              Reason <span aria-hidden="true">*</span>
            </label>
            <textarea
              id={`${ids}-reason`}
              className={`${FIELD} min-h-20 resize-y`}
              value={reason}
              maxLength={500}
              required
              disabled={isWorking || phase === 'confirm'}
              aria-invalid={reasonError !== null}
              aria-describedby={`${ids}-reason-error`}
              placeholder="Why every channel must close now"
              data-testid="emergency-reason"
              onChange={(event) => {
                setReason(event.currentTarget.value);
                setReasonError(null);
              }}
            />
            <p
              id={`${ids}-reason-error`}
              role="alert"
              className="mt-1 min-h-4 text-xs font-bold text-danger"
              data-testid="emergency-reason-error"
            >
              {reasonError ?? ''}
            </p>
          </div>
          {phase === 'confirm' ? (
            <div
              className="space-y-3 border border-danger bg-danger/10 p-3"
              data-testid="emergency-confirm"
            >
              <p className="text-xs text-fg">
                Every connected client{status ? ` (${status.connections})` : ''} will be
                disconnected and every channel closed until service is restored.
              </p>
              <div className="flex flex-wrap justify-end gap-2">
                <button
                  type="button"
                  className={DIALOG_BUTTON_SECONDARY}
                  onClick={() => setPhase('idle')}
                >
                  <Bracketed>ABORT</Bracketed>
                </button>
                <button
                  type="button"
                  className={DANGER_BUTTON}
                  autoFocus
                  onClick={() => void shutdown()}
                  data-testid="emergency-confirm-shutdown"
                >
                  <Bracketed>CONFIRM SHUTDOWN</Bracketed>
                </button>
              </div>
            </div>
          ) : (
            <div className="flex justify-end">
              <button
                type="button"
                className={DANGER_BUTTON}
                disabled={isWorking}
                onClick={armShutdown}
                data-testid="emergency-shutdown"
              >
                <Bracketed>
                  {phase === 'shutting-down' ? 'SHUTTING DOWN...' : 'EMERGENCY SHUTDOWN'}
                </Bracketed>
              </button>
            </div>
          )}
        </section>
      ) : null}

      <section
        aria-labelledby={`${ids}-restore`}
        className="space-y-3 border border-primary/40 p-4"
      >
        <h3 id={`${ids}-restore`} className={SECTION_TITLE}>
          Restore service
        </h3>
        <p className="text-xs text-muted">
          Reopens the channels; connected clients are told and return to the chat.
        </p>
        <div className="flex items-center justify-between gap-2">
          <span
            className={`${BADGE} ${state === 'emergency' ? BADGE_TONE.danger : BADGE_TONE.muted}`}
          >
            {state === 'emergency' ? 'Shutdown in effect' : 'Nothing to restore'}
          </span>
          <button
            type="button"
            className={DIALOG_BUTTON}
            disabled={isWorking || state === 'operational'}
            onClick={() => void restore()}
            data-testid="emergency-restore"
          >
            <Bracketed>{phase === 'restoring' ? 'RESTORING...' : 'RESTORE SERVICE'}</Bracketed>
          </button>
        </div>
      </section>
    </div>
  );
}
