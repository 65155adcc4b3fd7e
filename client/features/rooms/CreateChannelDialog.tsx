/**
 * The terminal-style create-channel dialog (spec 000 §2, §4 "Channel creation", §5, §8): name,
 * clearance, access code (not for public), an optional description that is never sent, and a
 * self-destruct timer. Submitting types a terminal log (one line every 300 ms) while the room is
 * created, then shows a success card and closes after 2 s; a failure logs why and toasts.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ROOM_CREATE_TIMER_OPTIONS } from '../../../shared/constants.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import {
  SecurityLevelSchema,
  type Room,
  type SecurityLevel,
} from '../../../shared/protocol/http/rooms.js';
import { toast } from '../../ui/use-toast.js';
import { rememberAccessCode } from '../e2ee/index.js';
import { isAccessCodeFilled, sha256Hex } from './access-code.js';
import { createRoom, serverErrorText, verifyRoomAccessCode } from './channel-api.js';
import { setRoomAccessToken } from '../../lib/rooms/room-access.js';
import { SECURITY_LEVEL_OPTIONS, securityLevelLabel } from './security-levels.js';
import {
  Bracketed,
  DIALOG_BUTTON,
  DIALOG_BUTTON_SECONDARY,
  TerminalDialog,
} from '../../ui/TerminalDialog.js';
import { TerminalLogView } from '../../ui/TerminalLogView.js';
import {
  timerFromFormValue,
  timerOptionLabel,
  timerToFormValue,
  type TimerMinutes,
} from './timer-options.js';
import { useTerminalLog, type LogLine } from '../../ui/use-terminal-log.js';

/** How long the success card stays before the dialog closes (spec 000 §4). */
export const CREATE_SUCCESS_CLOSE_MS = 2000;
/** The server's limit on channel names (CreateRoomRequestSchema). */
const NAME_MAX_LENGTH = 64;

/**
 * Who may enter a channel with an access code (spec 000 §4 lets key holders in without it; issue
 * 31 lets the creator require it from them too).
 */
export function whoCanEnterText(isCodeRequiredForKeyHolders: boolean): string {
  return isCodeRequiredForKeyHolders
    ? 'Everyone, key holders included, needs the code.'
    : 'Anyone with the code can enter. Key holders can enter without it.';
}

export interface CreateChannelDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Called with the new room once the dialog has closed. */
  onCreated: (room: Room) => void;
}

export function CreateChannelDialog({ open, onOpenChange, onCreated }: CreateChannelDialogProps) {
  // While the room is being created or the success card shows, the dialog cannot be dismissed:
  // closing then would lose the new room (or its access grant) half-way.
  const [isBusy, setIsBusy] = useState(false);

  const handleOpenChange = (next: boolean) => {
    if (!next && isBusy) return;
    onOpenChange(next);
  };

  return (
    <TerminalDialog
      open={open}
      onOpenChange={handleOpenChange}
      title="Establish secure channel"
      description="Create a new channel. Codes are hashed in this browser; the server never sees them."
      windowLabel="root@securechannel:~/channels/new"
      isDismissable={!isBusy}
      widthClass="max-w-xl"
      testId="create-channel-dialog"
    >
      {/* Rendered only while open: closing unmounts it, which resets the form and its timers. */}
      <CreateChannelForm
        onBusyChange={setIsBusy}
        onCancel={() => onOpenChange(false)}
        onDone={(room) => {
          setIsBusy(false);
          onOpenChange(false);
          onCreated(room);
        }}
      />
    </TerminalDialog>
  );
}

type Phase = 'idle' | 'creating' | 'success' | 'error';

interface CreateChannelFormProps {
  onBusyChange: (isBusy: boolean) => void;
  onCancel: () => void;
  onDone: (room: Room) => void;
}

/** Creates the room and, for a locked one, buys the creator an access grant with the same hash. */
async function establishChannel(form: {
  name: string;
  securityLevel: SecurityLevel;
  accessCode: string;
  selfDestructTimer: TimerMinutes;
  isCodeRequiredForKeyHolders: boolean;
}): Promise<{ room: Room; hasAccessGrant: boolean }> {
  const isLocked = form.securityLevel !== 'public';
  const passwordHash = isLocked ? await sha256Hex(form.accessCode) : null;
  const room = await createRoom({
    name: form.name,
    isPrivate: isLocked,
    securityLevel: form.securityLevel,
    selfDestructTimer: form.selfDestructTimer,
    // Spec 000 §5: the hash is not sent at all for public channels.
    ...(passwordHash ? { passwordHash } : {}),
    ...(passwordHash && form.isCodeRequiredForKeyHolders
      ? { codeRequiredForKeyHolders: true }
      : {}),
  });
  if (!passwordHash) return { room, hasAccessGrant: false };
  try {
    const answer = await verifyRoomAccessCode(room.id, passwordHash);
    if (answer.valid && answer.accessToken) {
      setRoomAccessToken(room.id, answer.accessToken);
      // Kept in this tab's memory for the room's ZK-AES-256 key; never stored or sent.
      rememberAccessCode(room.id, form.accessCode);
      return { room, hasAccessGrant: true };
    }
  } catch {
    // The room exists; without a grant the creator simply types the code at the terminal.
  }
  return { room, hasAccessGrant: false };
}

function CreateChannelForm({ onBusyChange, onCancel, onDone }: CreateChannelFormProps) {
  const ids = useId();
  const [name, setName] = useState('');
  const [securityLevel, setSecurityLevel] = useState<SecurityLevel>('public');
  const [accessCode, setAccessCode] = useState('');
  const [isCodeRequiredForKeyHolders, setCodeRequiredForKeyHolders] = useState(false);
  const [description, setDescription] = useState('');
  const [selfDestructTimer, setSelfDestructTimer] = useState<TimerMinutes>(null);
  const [phase, setPhase] = useState<Phase>('idle');
  const [created, setCreated] = useState<Room | null>(null);
  const log = useTerminalLog();
  const closeTimer = useRef<number | null>(null);

  useEffect(
    () => () => {
      if (closeTimer.current !== null) window.clearTimeout(closeTimer.current);
    },
    [],
  );

  const isLocked = securityLevel !== 'public';
  const trimmedName = name.trim();
  const isWorking = phase === 'creating' || phase === 'success';
  const canSubmit = trimmedName.length > 0 && !isWorking;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!canSubmit) return;
    if (isLocked && !isAccessCodeFilled(accessCode)) {
      toast({ title: TEXT.classifiedNeedsCode, variant: 'destructive' });
      return;
    }
    setPhase('creating');
    onBusyChange(true);
    log.reset();
    const level = securityLevelLabel(securityLevel);
    const intro: LogLine[] = [
      { text: '> INITIALIZING SECURE CHANNEL PROTOCOL...', tone: 'muted' },
      { text: `> CHANNEL DESIGNATION: ${trimmedName.toUpperCase()}`, tone: 'fg' },
      { text: `> CLEARANCE LEVEL: ${level}`, tone: 'accent' },
      ...(isLocked
        ? [
            { text: '> HASHING ACCESS CODE (SHA-256, IN BROWSER)...', tone: 'fg' } as const,
            {
              text: isCodeRequiredForKeyHolders
                ? '> KEY HOLDERS: CODE REQUIRED'
                : '> KEY HOLDERS: ENTER WITHOUT CODE',
              tone: 'muted',
            } as const,
          ]
        : []),
      ...(selfDestructTimer !== null
        ? [
            {
              text: `> SELF-DESTRUCT: ${timerOptionLabel(selfDestructTimer)}`,
              tone: 'warning',
            } as const,
          ]
        : []),
      { text: '> REGISTERING CHANNEL WITH RELAY...', tone: 'fg' },
    ];
    const request = establishChannel({
      name: trimmedName,
      securityLevel,
      accessCode,
      selfDestructTimer,
      isCodeRequiredForKeyHolders,
    });
    const [outcome, typed] = await Promise.allSettled([request, log.type(intro)]);
    // The form was closed or reset meanwhile: nothing left to show.
    if (typed.status === 'fulfilled' && !typed.value) return;

    if (outcome.status === 'rejected') {
      const reason = serverErrorText(outcome.reason);
      const isStillShown = await log.type([
        { text: 'ERROR: CHANNEL REGISTRATION REFUSED', tone: 'danger' },
        ...(reason ? [{ text: `> ${reason.toUpperCase()}`, tone: 'warning' } as const] : []),
        { text: '> NO CHANNEL CREATED', tone: 'muted' },
      ]);
      if (!isStillShown) return;
      setPhase('error');
      onBusyChange(false);
      toast({
        title: TEXT.creationFailedTitle,
        description: TEXT.creationFailed,
        variant: 'destructive',
      });
      return;
    }

    const { room, hasAccessGrant } = outcome.value;
    const isStillShown = await log.type([
      { text: `> SECURE ID ASSIGNED: ${room.secureId.slice(0, 16)}…`, tone: 'fg' },
      ...(hasAccessGrant
        ? [{ text: '> ACCESS GRANT STORED FOR THIS SESSION', tone: 'muted' } as const]
        : []),
      { text: '> CHANNEL ESTABLISHED', tone: 'primary' },
    ]);
    if (!isStillShown) return;
    setCreated(room);
    setPhase('success');
    toast({
      title: TEXT.channelCreated,
      description: `#${room.name} is online at clearance ${securityLevelLabel(room.securityLevel)}.`,
      variant: 'success',
    });
    closeTimer.current = window.setTimeout(() => onDone(room), CREATE_SUCCESS_CLOSE_MS);
  };

  const field =
    'w-full border border-border bg-background px-3 py-2 text-sm text-fg placeholder:text-muted/70 focus:border-primary focus:outline-none disabled:opacity-60';
  const label = 'mb-1 block text-xs font-bold tracking-[0.2em] text-primary uppercase';
  const hint = 'mt-1 text-xs leading-snug text-muted';

  return (
    <div className="space-y-4">
      <p className="border-l-2 border-accent/60 pl-2 text-xs tracking-[0.15em] text-muted uppercase">
        <span className="text-fg">Operator clearance:</span>{' '}
        <span className="text-accent" data-testid="create-channel-clearance">
          ADMINISTRATOR
        </span>
      </p>

      {phase !== 'idle' && (
        <TerminalLogView
          lines={log.lines}
          label="Channel creation log"
          isRunning={phase === 'creating'}
          testId="create-channel-log"
        />
      )}

      {phase === 'success' && created ? (
        <div
          role="status"
          className="border border-primary bg-primary/10 p-4 text-sm"
          data-testid="create-channel-success"
        >
          <p className="sc-glow font-bold tracking-[0.2em] text-primary uppercase">
            [✓] Channel established
          </p>
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
            <dt className="text-muted">NAME</dt>
            <dd className="break-all text-fg">#{created.name}</dd>
            <dt className="text-muted">CLEARANCE</dt>
            <dd className="text-accent">{securityLevelLabel(created.securityLevel)}</dd>
            <dt className="text-muted">SELF-DESTRUCT</dt>
            <dd className="text-fg">{timerOptionLabel(created.selfDestructTimer)}</dd>
            {created.isPrivate ? (
              <>
                <dt className="text-muted">ENTRY</dt>
                <dd className="text-fg" data-testid="create-channel-success-entry">
                  {whoCanEnterText(created.codeRequiredForKeyHolders === true)}
                </dd>
              </>
            ) : null}
          </dl>
          <p className="mt-3 text-xs text-muted">Entering channel...</p>
        </div>
      ) : null}

      {phase === 'idle' || phase === 'error' ? (
        <form className="space-y-4" onSubmit={(event) => void submit(event)} noValidate>
          <div>
            <label htmlFor={`${ids}-name`} className={label}>
              Channel name <span aria-hidden="true">*</span>
            </label>
            <input
              id={`${ids}-name`}
              className={field}
              value={name}
              maxLength={NAME_MAX_LENGTH}
              required
              autoFocus
              autoComplete="off"
              spellCheck={false}
              placeholder="operation-nightfall"
              onChange={(event) => setName(event.currentTarget.value)}
            />
          </div>

          <div className="grid gap-4 sm:grid-cols-2">
            <div>
              <label htmlFor={`${ids}-level`} className={label}>
                Security clearance
              </label>
              <select
                id={`${ids}-level`}
                className={field}
                value={securityLevel}
                onChange={(event) => {
                  const parsed = SecurityLevelSchema.safeParse(event.currentTarget.value);
                  if (parsed.success) setSecurityLevel(parsed.data);
                }}
              >
                {SECURITY_LEVEL_OPTIONS.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor={`${ids}-timer`} className={label}>
                Self-destruct timer
              </label>
              <select
                id={`${ids}-timer`}
                className={field}
                value={timerToFormValue(selfDestructTimer)}
                onChange={(event) =>
                  setSelfDestructTimer(
                    timerFromFormValue(event.currentTarget.value, ROOM_CREATE_TIMER_OPTIONS),
                  )
                }
              >
                {ROOM_CREATE_TIMER_OPTIONS.map((minutes) => (
                  <option key={timerToFormValue(minutes)} value={timerToFormValue(minutes)}>
                    {timerOptionLabel(minutes)}
                  </option>
                ))}
              </select>
            </div>
          </div>

          {isLocked ? (
            <div>
              <label htmlFor={`${ids}-code`} className={label}>
                Access code <span aria-hidden="true">*</span>
              </label>
              <input
                id={`${ids}-code`}
                type="password"
                className={field}
                value={accessCode}
                autoComplete="new-password"
                aria-describedby={`${ids}-code-hint ${ids}-who`}
                onChange={(event) => setAccessCode(event.currentTarget.value)}
              />
              <p id={`${ids}-code-hint`} className={hint}>
                Required for {securityLevelLabel(securityLevel)} channels. Only its SHA-256 hash
                leaves this browser; share the code itself out of band.
              </p>
              <p
                id={`${ids}-who`}
                className="mt-2 border-l-2 border-accent/60 pl-2 text-xs leading-snug text-fg"
                data-testid="create-channel-who-can-enter"
              >
                <span className="font-bold tracking-[0.15em] text-accent uppercase">
                  Who can enter:
                </span>{' '}
                {whoCanEnterText(isCodeRequiredForKeyHolders)}
              </p>
              <label className="mt-2 flex cursor-pointer items-start gap-2 text-xs leading-snug text-fg">
                <input
                  type="checkbox"
                  className="mt-0.5 size-4 shrink-0 accent-primary"
                  checked={isCodeRequiredForKeyHolders}
                  aria-describedby={`${ids}-who`}
                  onChange={(event) => setCodeRequiredForKeyHolders(event.currentTarget.checked)}
                />
                <span>Require the code from key holders too</span>
              </label>
            </div>
          ) : (
            <p
              className="border-l-2 border-accent/60 pl-2 text-xs leading-snug text-fg"
              data-testid="create-channel-who-can-enter"
            >
              <span className="font-bold tracking-[0.15em] text-accent uppercase">
                Who can enter:
              </span>{' '}
              Anyone: public channels have no access code.
            </p>
          )}

          <div>
            <label htmlFor={`${ids}-description`} className={label}>
              Description <span className="font-normal text-muted">(optional)</span>
            </label>
            <textarea
              id={`${ids}-description`}
              className={`${field} resize-none`}
              rows={2}
              value={description}
              aria-describedby={`${ids}-description-hint`}
              onChange={(event) => setDescription(event.currentTarget.value)}
            />
            <p id={`${ids}-description-hint`} className={hint}>
              Stays in this form; it is not transmitted.
            </p>
          </div>

          <div className="flex flex-col-reverse gap-2 pt-1 sm:flex-row sm:justify-end">
            <button type="button" className={DIALOG_BUTTON_SECONDARY} onClick={onCancel}>
              <Bracketed>ABORT</Bracketed>
            </button>
            <button type="submit" className={DIALOG_BUTTON} disabled={!canSubmit}>
              <Bracketed>ESTABLISH CHANNEL</Bracketed>
            </button>
          </div>
        </form>
      ) : null}
    </div>
  );
}
