/** A system line: joins and leaves, server notices and answers to chat commands. */
import { type SystemLevel, type SystemLine } from './chat-line.js';
import { SecurityNoticeRow } from './SecurityNoticeRow.js';

const LEVEL_CLASS: Record<SystemLevel, string> = {
  info: 'text-muted',
  warning: 'text-warning',
  critical: 'font-bold text-danger',
  security: 'font-bold text-danger',
};

export function SystemRow({ line }: { line: SystemLine }) {
  if (line.level === 'security') return <SecurityNoticeRow text={line.text} />;
  return (
    <li
      data-testid="system-message"
      data-source={line.source}
      data-simulated={line.isSimulated ? 'true' : undefined}
      className={`px-3 py-1 text-xs tracking-wide ${LEVEL_CLASS[line.level]}`}
    >
      <span aria-hidden="true" className="text-accent">
        {'>> '}
      </span>
      <span className="sr-only">System: </span>
      {line.isSimulated ? (
        <span
          className="mr-1.5 border border-warning px-1 text-xs font-bold text-warning"
          data-testid="simulation-tag"
        >
          SIMULATION
        </span>
      ) : null}
      <span className="break-words whitespace-pre-wrap">{line.text}</span>
    </li>
  );
}
