/**
 * The crypto process log panel (spec 000 §2): what the browser's encryption did, newest last.
 * Entries never hold keys or message text (crypto-log.ts).
 */
import { useLayoutEffect, useRef } from 'react';
import { type CryptoLogEntry, type CryptoLogLevel } from './crypto-log.js';

const LEVEL_CLASS: Record<CryptoLogLevel, string> = {
  info: 'text-fg',
  success: 'text-primary',
  warning: 'text-warning',
  error: 'text-danger',
};

const LEVEL_MARK: Record<CryptoLogLevel, string> = {
  info: '>',
  success: '✓',
  warning: '!',
  error: '✗',
};

function clock(at: number): string {
  return new Date(at).toLocaleTimeString([], { hour12: false });
}

export function CryptoLogPanel({
  id,
  entries,
}: {
  id: string;
  entries: readonly CryptoLogEntry[];
}) {
  const listRef = useRef<HTMLOListElement>(null);
  const lastId = entries.at(-1)?.id ?? 0;
  useLayoutEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [lastId]);

  return (
    <div id={id} className="border-t border-border bg-background px-3 py-2">
      <h3 className="text-xs font-bold tracking-[0.2em] text-primary">CRYPTO PROCESS LOG</h3>
      <ol
        ref={listRef}
        role="log"
        aria-label="Crypto process log"
        tabIndex={0}
        data-testid="crypto-log"
        className="mt-1 max-h-40 space-y-0.5 overflow-y-auto text-xs tracking-normal"
      >
        {entries.length === 0 ? <li className="text-muted">Nothing yet.</li> : null}
        {entries.map((entry) => (
          <li
            key={entry.id}
            className={`flex gap-2 ${LEVEL_CLASS[entry.level]}`}
            data-level={entry.level}
          >
            <span className="shrink-0 text-muted tabular-nums">[{clock(entry.at)}]</span>
            <span aria-hidden="true" className="shrink-0">
              {LEVEL_MARK[entry.level]}
            </span>
            <span className="min-w-0 break-words">{entry.text}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}
