/**
 * 'ENCRYPTED CONVERSATIONS' (spec 001 §2): one row per thread with the other party's secure id
 * (upper-cased) and username, the last-message or created time as 'MMM dd, HH:mm' and the
 * thread's mode badge; a legend says plainly what each badge means.
 */
import { TEXT } from '../../../shared/protocol/errors.js';
import { type DmThread } from '../../../shared/protocol/http/dm.js';
import { formatListTime } from './dm-time.js';
import { MODE_BADGE, MODE_EXPLANATION } from './thread-mode.js';

export interface ThreadListProps {
  threads: readonly DmThread[];
  isLoading: boolean;
  isError: boolean;
  onRetry: () => void;
  onOpen: (thread: DmThread) => void;
}

export function ThreadList({ threads, isLoading, isError, onRetry, onOpen }: ThreadListProps) {
  return (
    <section aria-labelledby="dm-list-title" className="sc-panel" data-testid="dm-thread-list">
      <div className="flex items-center justify-between gap-3 border-b border-border px-4 py-3">
        <h2
          id="dm-list-title"
          className="text-xs font-bold tracking-[0.25em] text-primary sm:text-sm"
        >
          ENCRYPTED CONVERSATIONS
        </h2>
        <span className="text-xs tracking-wider text-muted tabular-nums">
          {isLoading ? '' : `${threads.length} ACTIVE`}
        </span>
      </div>
      {isLoading ? (
        <p className="px-4 py-8 text-center text-xs tracking-widest text-muted">{TEXT.loading}</p>
      ) : isError ? (
        <div className="space-y-3 px-4 py-8 text-center">
          <p className="text-sm text-danger">{TEXT.dmFetchThreadsFailed}</p>
          <button type="button" onClick={onRetry} className="sc-btn text-xs">
            RETRY
          </button>
        </div>
      ) : threads.length === 0 ? (
        <div className="px-4 py-10 text-center">
          <p className="text-sm text-fg" data-testid="dm-empty-list">
            {TEXT.dmNoConversations}
          </p>
          <p className="mt-1 text-xs text-muted">
            Start one with NEW CONVERSATION and the recipient&apos;s secure ID.
          </p>
        </div>
      ) : (
        <ul className="divide-y divide-border">
          {threads.map((thread) => (
            <li key={thread.id}>
              <ThreadRow thread={thread} onOpen={onOpen} />
            </li>
          ))}
        </ul>
      )}
      <ModeLegend />
    </section>
  );
}

function ThreadRow({ thread, onOpen }: { thread: DmThread; onOpen: (thread: DmThread) => void }) {
  const name = thread.otherParticipantSecureId.toUpperCase() || thread.otherParticipantUsername;
  const time = thread.lastMessageAt ?? thread.createdAt;
  return (
    <button
      type="button"
      onClick={() => onOpen(thread)}
      data-testid="dm-thread-row"
      data-thread-id={thread.id}
      className="group flex w-full items-center gap-3 px-4 py-3 text-left hover:bg-primary/10 focus-visible:bg-primary/10"
    >
      <span aria-hidden="true" className="text-primary/70 group-hover:text-primary">
        &gt;
      </span>
      <span className="min-w-0 flex-1">
        <span
          className="block truncate text-sm font-bold tracking-wider text-primary"
          data-testid="dm-thread-name"
        >
          {name}
        </span>
        <span className="block truncate text-xs text-muted">{thread.otherParticipantUsername}</span>
      </span>
      <span className="flex shrink-0 flex-col items-end gap-1">
        <time dateTime={time} className="text-xs text-muted tabular-nums">
          {formatListTime(time)}
        </time>
        <ModeBadge />
      </span>
    </button>
  );
}

function ModeBadge() {
  return (
    <span
      title={MODE_EXPLANATION}
      data-testid="dm-mode-badge"
      className="inline-block shrink-0 border border-primary/70 px-1.5 py-px text-xs font-bold tracking-widest text-primary"
    >
      {MODE_BADGE}
    </span>
  );
}

function ModeLegend() {
  return (
    <dl className="border-t border-border px-4 py-3 text-xs leading-relaxed text-muted">
      <div className="flex gap-2">
        <dt className="shrink-0">
          <ModeBadge />
        </dt>
        <dd>{MODE_EXPLANATION}</dd>
      </div>
    </dl>
  );
}
