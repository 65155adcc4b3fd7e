/**
 * The secure access terminal for locked rooms (spec 000 §2, §4 "Access terminal", §5, §8). The code
 * is hashed in the browser and checked by the server; a correct one buys an access grant kept for
 * this tab. Three wrong codes end the session: the terminal closes (onCancel) after 2 s. Network
 * failures and rate limiting do not count as failed attempts.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import {
  ACCESS_TERMINAL_CLOSE_DELAY_MS,
  ACCESS_TERMINAL_MAX_ATTEMPTS,
  ACCESS_TERMINAL_SUCCESS_DELAY_MS,
} from '../../../shared/constants.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import type { Room } from '../../../shared/protocol/http/rooms.js';
import { roomLabel } from '../../../shared/protocol/room-label.js';
import { rememberAccessCode } from '../e2ee/index.js';
import { isAccessCodeFilled, sha256Hex } from './access-code.js';
import { serverErrorText, verifyRoomAccessCode } from './channel-api.js';
import { setRoomAccessToken } from '../../lib/rooms/room-access.js';
import {
  Bracketed,
  DIALOG_BUTTON,
  DIALOG_BUTTON_SECONDARY,
  TerminalDialog,
} from '../../ui/TerminalDialog.js';
import { TerminalLogView } from '../../ui/TerminalLogView.js';
import { useTerminalLog, type LogLine } from '../../ui/use-terminal-log.js';

export interface AccessTerminalProps {
  room: Room;
  /** Called 1.5 s after ACCESS GRANTED with the room access token (already stored). */
  onGranted: (accessToken: string) => void;
  /** Called when the user cancels, and 2 s after the last allowed attempt failed. */
  onCancel: () => void;
  /**
   * An access code from the invite link's fragment (lib/rooms/invite-fragment.ts): filled in and
   * verified at once, as if typed; a wrong one counts as a failed attempt.
   */
  initialCode?: string | null;
}

type TerminalState = 'idle' | 'verifying' | 'granted' | 'denied' | 'terminated' | 'error';

/** The counter line of spec 000 §8. */
export function failedAttemptsText(failures: number): string {
  return `${TEXT.failedAttempts} ${failures}/${ACCESS_TERMINAL_MAX_ATTEMPTS}`;
}

export function AccessTerminal({
  room,
  onGranted,
  onCancel,
  initialCode = null,
}: AccessTerminalProps) {
  const ids = useId();
  const label = roomLabel(room);
  const [code, setCode] = useState(initialCode ?? '');
  const [state, setState] = useState<TerminalState>('idle');
  const [failures, setFailures] = useState(0);
  const log = useTerminalLog([
    { text: '> SECURE ACCESS TERMINAL // SECURECHANNEL', tone: 'muted' },
    { text: `> TARGET: #${room.name.toUpperCase()} [${label}]`, tone: 'fg' },
    { text: '> AUTHENTICATION REQUIRED: ENTER ACCESS CODE', tone: 'accent' },
  ]);
  const inputRef = useRef<HTMLInputElement>(null);
  const exitTimer = useRef<number | null>(null);
  const hasExited = useRef(false);

  useEffect(
    () => () => {
      if (exitTimer.current !== null) window.clearTimeout(exitTimer.current);
    },
    [],
  );

  /** Leaves exactly once, whether by cancel, by Escape or by the timers below. */
  const exitOnce = (leave: () => void) => {
    if (hasExited.current) return;
    hasExited.current = true;
    leave();
  };

  const isInputLocked = state === 'verifying' || state === 'granted' || state === 'terminated';
  const canSubmit = isAccessCodeFilled(code) && !isInputLocked;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (canSubmit) void verify(code);
  };

  const verify = async (code: string) => {
    setState('verifying');
    const typed = log.type([{ text: '> VERIFYING ACCESS CODE...', tone: 'fg' }]);
    let answer: Awaited<ReturnType<typeof verifyRoomAccessCode>> | null = null;
    let failure: unknown = null;
    try {
      answer = await verifyRoomAccessCode(room.secureId, await sha256Hex(code));
    } catch (error) {
      failure = error;
    }
    if (!(await typed)) return;

    if (answer?.valid && answer.accessToken) {
      const token = answer.accessToken;
      setRoomAccessToken(room.id, token);
      // Kept in this tab's memory for the room's ZK-AES-256 key; never stored or sent.
      rememberAccessCode(room.id, code);
      setState('granted');
      setCode('');
      if (!(await log.type([{ text: TEXT.accessGranted, tone: 'primary' }]))) return;
      exitTimer.current = window.setTimeout(
        () => exitOnce(() => onGranted(token)),
        ACCESS_TERMINAL_SUCCESS_DELAY_MS,
      );
      return;
    }

    if (answer) {
      const count = failures + 1;
      const isLast = count >= ACCESS_TERMINAL_MAX_ATTEMPTS;
      setFailures(count);
      setCode('');
      setState(isLast ? 'terminated' : 'denied');
      const lines: LogLine[] = [
        { text: TEXT.accessDenied, tone: 'danger' },
        { text: TEXT.invalidCredentials, tone: 'danger' },
        { text: TEXT.securityAlertLogged, tone: 'warning' },
        isLast
          ? { text: TEXT.maxAttemptsReached, tone: 'danger' }
          : { text: TEXT.tryAgain, tone: 'muted' },
      ];
      if (!(await log.type(lines))) return;
      if (isLast) {
        exitTimer.current = window.setTimeout(
          () => exitOnce(onCancel),
          ACCESS_TERMINAL_CLOSE_DELAY_MS,
        );
      } else {
        inputRef.current?.focus();
      }
      return;
    }

    // No answer: the network failed, the server limited us (429) or refused otherwise.
    const reason = serverErrorText(failure);
    setState('error');
    const isStillShown = await log.type([
      { text: TEXT.systemError, tone: 'danger' },
      { text: TEXT.connectionLost, tone: 'warning' },
      ...(reason ? [{ text: `> ${reason.toUpperCase()}`, tone: 'warning' } as const] : []),
      { text: TEXT.retrying, tone: 'muted' },
    ]);
    if (!isStillShown) return;
    // The terminal re-arms: the next submit is the retry, and it does not count as a failure.
    setState('idle');
    inputRef.current?.focus();
  };

  // A code from the invite link is verified once, on opening, without waiting for a keypress.
  const hasTriedInviteCode = useRef(false);
  useEffect(() => {
    if (hasTriedInviteCode.current || initialCode === null || !isAccessCodeFilled(initialCode))
      return;
    hasTriedInviteCode.current = true;
    void verify(initialCode);
    // Only the first opening counts; `verify` is this render's and needs no dependency.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [initialCode]);

  const tone = state === 'granted' ? 'primary' : state === 'idle' ? 'primary' : 'danger';
  const statusWord =
    state === 'granted'
      ? TEXT.accessGranted
      : state === 'terminated'
        ? 'TERMINATED'
        : state === 'verifying'
          ? 'VERIFYING'
          : 'LOCKED';

  return (
    <TerminalDialog
      open
      onOpenChange={(open) => {
        if (!open && state !== 'granted') exitOnce(onCancel);
      }}
      title="Secure access terminal"
      description={`#${room.name} is a ${label} channel. Enter its access code to connect.`}
      windowLabel={`root@securechannel:~/access/${room.secureId.slice(0, 8)}`}
      status={
        <span
          className={state === 'granted' ? 'text-primary' : 'text-danger'}
          data-testid="access-terminal-status"
        >
          {statusWord}
        </span>
      }
      tone={tone}
      isDismissable={state !== 'granted' && state !== 'terminated'}
      testId="access-terminal"
    >
      <div className="space-y-4">
        <TerminalLogView
          lines={log.lines}
          label="Access terminal log"
          isRunning={state === 'verifying'}
          minHeightClass="min-h-36"
          testId="access-terminal-log"
        />
        <p
          className={`text-xs tracking-[0.2em] uppercase ${failures > 0 ? 'text-danger' : 'text-muted'}`}
          data-testid="access-terminal-attempts"
        >
          {failedAttemptsText(failures)}
        </p>
        <form className="space-y-3" onSubmit={submit} noValidate>
          <label
            htmlFor={`${ids}-code`}
            className="block text-xs font-bold tracking-[0.2em] text-primary uppercase"
          >
            Access code
          </label>
          <div className="flex items-center gap-2 border border-border bg-background px-3 focus-within:border-primary focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-accent">
            <span aria-hidden="true" className="text-primary">
              &gt;
            </span>
            <input
              ref={inputRef}
              id={`${ids}-code`}
              type="password"
              value={code}
              autoFocus
              autoComplete="off"
              spellCheck={false}
              disabled={isInputLocked}
              onChange={(event) => setCode(event.currentTarget.value)}
              // The frame around the prompt shows focus; the global :focus-visible outline is
              // unlayered CSS, which only an inline style outranks.
              style={{ outline: 'none' }}
              className="min-w-0 flex-1 bg-transparent py-2 text-sm text-fg disabled:opacity-60"
            />
          </div>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <button
              type="button"
              className={DIALOG_BUTTON_SECONDARY}
              disabled={state === 'granted'}
              onClick={() => exitOnce(onCancel)}
            >
              <Bracketed>CANCEL</Bracketed>
            </button>
            <button type="submit" className={DIALOG_BUTTON} disabled={!canSubmit}>
              <Bracketed>{state === 'verifying' ? 'VERIFYING...' : 'AUTHENTICATE'}</Bracketed>
            </button>
          </div>
        </form>
      </div>
    </TerminalDialog>
  );
}
