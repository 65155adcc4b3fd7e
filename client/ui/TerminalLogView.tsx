/** A terminal log box: lines in their tones, a blinking block while it is still running. */
import { LOG_TONE_CLASS, type LogLine } from './use-terminal-log.js';

export interface TerminalLogViewProps {
  lines: readonly LogLine[];
  /** Accessible name of the log region. */
  label: string;
  isRunning: boolean;
  testId?: string;
  /** Tailwind min-height class, so the box does not jump while lines arrive. */
  minHeightClass?: string;
}

export function TerminalLogView({
  lines,
  label,
  isRunning,
  testId,
  minHeightClass = 'min-h-28',
}: TerminalLogViewProps) {
  return (
    <div
      role="log"
      aria-label={label}
      aria-live="polite"
      data-testid={testId}
      className={`border border-border bg-background p-3 text-xs leading-relaxed ${minHeightClass}`}
    >
      {lines.map((line, index) => (
        // Lines only ever append, so the index is a stable key.
        <p key={index} className={`break-words ${LOG_TONE_CLASS[line.tone]}`}>
          {line.text}
        </p>
      ))}
      {isRunning ? (
        <span aria-hidden="true" className="inline-block animate-pulse text-primary">
          █
        </span>
      ) : null}
    </div>
  );
}
