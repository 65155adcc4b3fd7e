/**
 * The manual self-destruct timer dialog (spec 000 §2, §4 "Timer dialog"; spec 001 §2): choose a
 * value, confirm, then apply, or abort. CONFIGURE stays disabled while the choice equals the
 * room's current timer. A locked room's timer needs this tab's access grant or a key session.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ROOM_MANUAL_TIMER_OPTIONS } from '../../../shared/constants.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import { type Room } from '../../../shared/protocol/http/rooms.js';
import { toast } from '../../ui/use-toast.js';
import { roomKeys } from '../../lib/rooms/api.js';
import { serverErrorText, setRoomSelfDestruct } from './channel-api.js';
import {
  Bracketed,
  DIALOG_BUTTON,
  DIALOG_BUTTON_SECONDARY,
  TerminalDialog,
} from '../../ui/TerminalDialog.js';
import {
  timerFromFormValue,
  timerOptionLabel,
  timerToFormValue,
  timerUpdatedDescription,
  type TimerMinutes,
} from './timer-options.js';

export interface SelfDestructTimerDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  room: Room;
}

export function SelfDestructTimerDialog({
  open,
  onOpenChange,
  room,
}: SelfDestructTimerDialogProps) {
  const [isApplying, setIsApplying] = useState(false);
  return (
    <TerminalDialog
      open={open}
      onOpenChange={(next) => {
        if (!next && isApplying) return;
        onOpenChange(next);
      }}
      title="Self-destruct timer"
      description={`Set when #${room.name} and everything in it is destroyed for every member.`}
      windowLabel="root@securechannel:~/channel/self-destruct"
      tone="warning"
      isDismissable={!isApplying}
      testId="self-destruct-dialog"
    >
      {/* Mounted only while open, so every opening starts from the room's current value. */}
      <TimerForm room={room} onApplyingChange={setIsApplying} onClose={() => onOpenChange(false)} />
    </TerminalDialog>
  );
}

type Step = 'choose' | 'confirm' | 'applying';

interface TimerFormProps {
  room: Room;
  onApplyingChange: (isApplying: boolean) => void;
  onClose: () => void;
}

function TimerForm({ room, onApplyingChange, onClose }: TimerFormProps) {
  const ids = useId();
  const queryClient = useQueryClient();
  const current = room.selfDestructTimer;
  const [selected, setSelected] = useState<TimerMinutes>(current);
  const [step, setStep] = useState<Step>('choose');
  const isUnchanged = selected === current;

  const apply = async () => {
    setStep('applying');
    onApplyingChange(true);
    try {
      const updated = await setRoomSelfDestruct(room, selected);
      queryClient.setQueryData(roomKeys.room(updated.secureId), updated);
      await queryClient.invalidateQueries({ queryKey: roomKeys.all });
      toast({
        title: TEXT.timerUpdated,
        description: timerUpdatedDescription(updated.selfDestructTimer),
        variant: 'success',
      });
      onApplyingChange(false);
      onClose();
    } catch (error) {
      const reason = serverErrorText(error);
      toast({
        title: TEXT.timerUpdateFailedTitle,
        description: reason ? `${TEXT.timerUpdateFailed} ${reason}` : TEXT.timerUpdateFailed,
        variant: 'destructive',
      });
      onApplyingChange(false);
      setStep('choose');
    }
  };

  const status = (
    <p className="text-xs tracking-[0.15em] text-muted uppercase">
      Current:{' '}
      <span className="text-fg" data-testid="self-destruct-current">
        {current === null ? 'DISABLED' : timerOptionLabel(current)}
      </span>
      {room.destructionAt ? (
        <>
          {' '}
          · destructs at{' '}
          <time dateTime={room.destructionAt} className="text-warning">
            {new Date(room.destructionAt).toLocaleTimeString()}
          </time>
        </>
      ) : null}
    </p>
  );

  if (step !== 'choose') {
    return (
      <div className="space-y-4">
        {status}
        <div
          role="alert"
          className="border border-warning/70 bg-warning/10 p-3 text-xs leading-relaxed text-fg"
          data-testid="self-destruct-confirm"
        >
          <p className="font-bold tracking-[0.2em] text-warning uppercase">Confirm configuration</p>
          <p className="mt-2">
            {selected === null
              ? `Disable the self-destruct timer of #${room.name}?`
              : `Destroy #${room.name} in ${timerOptionLabel(selected).toLowerCase()}? The timer starts now, for every member; when it ends the channel and its messages are gone.`}
          </p>
        </div>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <button
            type="button"
            className={DIALOG_BUTTON_SECONDARY}
            disabled={step === 'applying'}
            onClick={() => setStep('choose')}
          >
            <Bracketed>ABORT</Bracketed>
          </button>
          <button
            type="button"
            className={DIALOG_BUTTON}
            disabled={step === 'applying'}
            onClick={() => void apply()}
            autoFocus
          >
            <Bracketed>{step === 'applying' ? 'APPLYING...' : 'CONFIRM'}</Bracketed>
          </button>
        </div>
      </div>
    );
  }

  return (
    <form
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (!isUnchanged) setStep('confirm');
      }}
    >
      {status}
      <fieldset>
        <legend className="mb-2 text-xs font-bold tracking-[0.2em] text-primary uppercase">
          Destroy the channel after
        </legend>
        <div className="grid grid-cols-2 gap-1.5 sm:grid-cols-3">
          {ROOM_MANUAL_TIMER_OPTIONS.map((minutes) => {
            const value = timerToFormValue(minutes);
            const id = `${ids}-${value}`;
            return (
              <div key={value}>
                <input
                  id={id}
                  type="radio"
                  name={`${ids}-timer`}
                  value={value}
                  checked={selected === minutes}
                  autoFocus={selected === minutes}
                  onChange={(event) =>
                    setSelected(
                      timerFromFormValue(event.currentTarget.value, ROOM_MANUAL_TIMER_OPTIONS),
                    )
                  }
                  className="peer sr-only"
                />
                <label
                  htmlFor={id}
                  className="flex min-h-10 cursor-pointer items-center gap-2 border border-border px-2 py-1.5 text-xs text-fg peer-checked:border-warning peer-checked:bg-warning/10 peer-checked:text-warning peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-accent hover:border-primary"
                >
                  <span aria-hidden="true" className="shrink-0">
                    {selected === minutes ? '(•)' : '( )'}
                  </span>
                  <span>{timerOptionLabel(minutes)}</span>
                </label>
              </div>
            );
          })}
        </div>
      </fieldset>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <button type="button" className={DIALOG_BUTTON_SECONDARY} onClick={onClose}>
          <Bracketed>CANCEL</Bracketed>
        </button>
        <button type="submit" className={DIALOG_BUTTON} disabled={isUnchanged}>
          <Bracketed>CONFIGURE</Bracketed>
        </button>
      </div>
    </form>
  );
}
