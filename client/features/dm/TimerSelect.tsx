/** The auto-delete timer select (spec 001 §9): '10 seconds (demo)' to '24 hours'. */
import { DM_TIMER_CHOICES, parseTimerChoice, type DmTimerSeconds } from './timer-options.js';
import { FIELD } from './dm-styles.js';

export interface TimerSelectProps {
  id: string;
  value: DmTimerSeconds;
  onChange: (value: DmTimerSeconds) => void;
  disabled?: boolean;
  className?: string;
  testId?: string;
}

export function TimerSelect({
  id,
  value,
  onChange,
  disabled,
  className,
  testId,
}: TimerSelectProps) {
  return (
    <select
      id={id}
      value={value}
      disabled={disabled}
      data-testid={testId}
      onChange={(event) => onChange(parseTimerChoice(event.currentTarget.value))}
      className={`${FIELD} cursor-pointer ${className ?? ''}`}
    >
      {DM_TIMER_CHOICES.map((choice) => (
        <option key={choice.value} value={choice.value}>
          {choice.label}
        </option>
      ))}
    </select>
  );
}
