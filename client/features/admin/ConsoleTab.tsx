/**
 * The Console tab (spec 001 §2 "Console (lists console commands)"): the command list, and a
 * prompt that runs them with the output in a terminal log. Up and Down recall earlier lines.
 */
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { TerminalLogView } from '../rooms/TerminalLogView.js';
import { type OnFrame, type SendFrame } from './admin-socket.js';
import { BADGE, BADGE_TONE, SECTION_TITLE } from './admin-styles.js';
import { CONSOLE_COMMANDS, CONSOLE_TEXT_MAX_LENGTH } from './console-commands.js';
import { useAdminConsole } from './use-admin-console.js';

export interface ConsoleTabProps {
  sessionToken: string;
  send: SendFrame;
  onFrame: OnFrame;
  onDataChanged: () => void;
}

const VIA_TONE = { socket: BADGE_TONE.accent, http: BADGE_TONE.primary, local: BADGE_TONE.muted };

export function ConsoleTab({ sessionToken, send, onFrame, onDataChanged }: ConsoleTabProps) {
  const ids = useId();
  const adminConsole = useAdminConsole({ sessionToken, send, onFrame, onDataChanged });
  const [input, setInput] = useState('');
  const [history, setHistory] = useState<readonly string[]>([]);
  const [recall, setRecall] = useState<number | null>(null);
  const scroller = useRef<HTMLDivElement | null>(null);

  // Keep the newest output in view.
  useEffect(() => {
    const element = scroller.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [adminConsole.lines]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const line = input.trim();
    if (line === '') return;
    setHistory((previous) => [...previous.filter((item) => item !== line), line].slice(-50));
    setRecall(null);
    setInput('');
    void adminConsole.run(line);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
    if (history.length === 0) return;
    event.preventDefault();
    const last = history.length - 1;
    const next =
      event.key === 'ArrowUp'
        ? recall === null
          ? last
          : Math.max(0, recall - 1)
        : recall === null || recall >= last
          ? null
          : recall + 1;
    setRecall(next);
    setInput(next === null ? '' : (history[next] ?? ''));
  };

  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_16rem]">
      <div className="flex min-w-0 flex-col gap-2">
        <div
          ref={scroller}
          className="max-h-80 min-h-56 overflow-y-auto [&_p]:whitespace-pre-wrap"
          data-testid="admin-console-output"
        >
          <TerminalLogView
            lines={adminConsole.lines}
            label="Admin console output"
            isRunning={adminConsole.isBusy}
            minHeightClass="min-h-56"
          />
        </div>
        <form
          onSubmit={submit}
          className="flex items-center gap-2 border border-border bg-background px-3 py-2"
        >
          <label htmlFor={`${ids}-input`} className="shrink-0 text-xs text-primary">
            <span aria-hidden="true">
              <span className="hidden sm:inline">admin@securechannel:~</span>$
            </span>
            <span className="sr-only">Console command</span>
          </label>
          <input
            id={`${ids}-input`}
            className="min-w-0 flex-1 bg-transparent text-sm text-fg placeholder:text-muted/70 focus:outline-none"
            value={input}
            maxLength={CONSOLE_TEXT_MAX_LENGTH + 20}
            autoComplete="off"
            spellCheck={false}
            placeholder="help"
            data-testid="admin-console-input"
            onChange={(event) => {
              setInput(event.currentTarget.value);
              setRecall(null);
            }}
            onKeyDown={onKeyDown}
          />
          <button
            type="submit"
            className="sc-btn min-h-8 px-2 py-1 text-[0.7rem]"
            data-testid="admin-console-run"
          >
            <span aria-hidden="true">[</span>RUN<span aria-hidden="true">]</span>
          </button>
        </form>
      </div>
      <section
        aria-labelledby={`${ids}-commands`}
        className="border border-border bg-background p-3"
      >
        <h3 id={`${ids}-commands`} className={SECTION_TITLE}>
          Commands
        </h3>
        <ul className="mt-2 space-y-2 text-xs" data-testid="admin-console-commands">
          {CONSOLE_COMMANDS.map((command) => (
            <li key={command.name}>
              <span className="flex items-center justify-between gap-2">
                <code className="text-accent">{command.usage}</code>
                <span className={`${BADGE} ${VIA_TONE[command.via]}`}>{command.via}</span>
              </span>
              <span className="block text-[0.7rem] text-muted">{command.description}</span>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
