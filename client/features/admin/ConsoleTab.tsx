/**
 * The Console tab (spec 001 §2 "Console (lists console commands)"): the command list, and a
 * prompt that runs them with the output in a terminal log. Up and Down recall earlier lines.
 *
 * Console authentication on top of the admin key (spec 001 §4 "Admin console session", §6):
 * the tab stays locked until the admin password opens a ten-minute admin session (lockout: 3
 * failures, 5 minutes, from the server); every command then acts with that session, and the
 * console locks again when it expires or on LOCK.
 */
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { TerminalLogView } from '../../ui/TerminalLogView.js';
import { type OnFrame, type SendFrame } from '../../lib/admin/admin-socket.js';
import { Bracketed, DIALOG_BUTTON_SECONDARY } from '../../ui/TerminalDialog.js';
import { type AdminSessionGrant } from '../../lib/admin/admin-api.js';
import { AdminPasswordGate } from '../../ui/AdminPasswordGate.js';
import { clearAdminSession, useAdminSession } from '../../lib/admin/admin-session.js';
import { BADGE, BADGE_TONE, SECTION_TITLE, SECTION_TITLE_BASE } from '../../ui/admin-styles.js';
import { formatSessionLeft } from '../../lib/admin/lockout.js';
import { useNow } from '../../lib/use-now.js';
import { CONSOLE_COMMANDS, CONSOLE_TEXT_MAX_LENGTH } from './console-commands.js';
import { useAdminConsole } from './use-admin-console.js';

export interface ConsoleTabProps {
  send: SendFrame;
  onFrame: OnFrame;
  onDataChanged: () => void;
}

const VIA_TONE = { socket: BADGE_TONE.accent, http: BADGE_TONE.primary, local: BADGE_TONE.muted };

export function ConsoleTab(props: ConsoleTabProps) {
  const session = useAdminSession();
  if (!session) {
    return (
      <section
        aria-labelledby="admin-console-locked"
        className="mx-auto max-w-md space-y-3 border border-danger/50 bg-background p-4"
        data-testid="admin-console-locked"
      >
        <h3 id="admin-console-locked" className={`${SECTION_TITLE_BASE} text-danger`}>
          Console locked
        </h3>
        <p className="text-xs leading-relaxed text-muted">
          Console commands (broadcasts, user list, shutdown and restore, Tor, key generation,
          listing and revocation) need console authentication on top of your admin key: the admin
          password opens a ten-minute console session.
        </p>
        <AdminPasswordGate testIdPrefix="console" />
      </section>
    );
  }
  return <UnlockedConsole {...props} session={session} />;
}

function UnlockedConsole({
  session,
  send,
  onFrame,
  onDataChanged,
}: ConsoleTabProps & { session: AdminSessionGrant }) {
  const ids = useId();
  const now = useNow(1000);
  const adminConsole = useAdminConsole({
    sessionToken: session.sessionToken,
    send,
    onFrame,
    onDataChanged,
  });
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
        <div className="flex flex-wrap items-center justify-between gap-2 text-[0.75rem] tracking-[0.2em] text-muted uppercase">
          <span>
            Console session ·{' '}
            <span className="text-fg" data-testid="console-session-left">
              {formatSessionLeft(session.expiresAt, now)}
            </span>{' '}
            left
          </span>
          <button
            type="button"
            className={DIALOG_BUTTON_SECONDARY}
            onClick={clearAdminSession}
            data-testid="console-lock"
          >
            <Bracketed>LOCK</Bracketed>
          </button>
        </div>
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
            className="sc-btn min-h-8 px-2 py-1 text-[0.75rem]"
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
                <code className="min-w-0 break-all text-accent">{command.usage}</code>
                <span className={`${BADGE} ${VIA_TONE[command.via]}`}>{command.via}</span>
              </span>
              <span className="block text-[0.75rem] text-muted">{command.description}</span>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
