/**
 * The message list (spec 000 §2): messages and system lines in order, following new lines only
 * while the reader is within SCROLL_STICK_THRESHOLD_PX of the bottom, so scrolling back to read
 * is never interrupted.
 */
import { useLayoutEffect, useRef } from 'react';
import { useNow } from '../../lib/use-now.js';
import { SCROLL_STICK_THRESHOLD_PX } from '../../../shared/constants.js';
import { isSecurityNotice, type ChatLine } from './chat-line.js';
import { MessageRow } from './MessageRow.js';
import { SecurityNoticeRow } from './SecurityNoticeRow.js';
import { SystemRow } from './SystemRow.js';

export interface MessageListProps {
  lines: readonly ChatLine[];
  /**
   * This browser's clock when the lines last changed (`ChatRoomState.linesAt`): a line that
   * arrived since the last tick is never shown older than it is. Never a time the server gave.
   */
  linesAt: number;
  /** Shown when there are no lines. */
  emptyText: string;
}

export function MessageList({ lines, linesAt, emptyText }: MessageListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const isNearBottomRef = useRef(true);
  const lastLineId = lines.at(-1)?.id ?? null;
  // The countdowns tick here, only while a message is on screen: a quiet room renders nothing
  // a second.
  const tick = useNow(
    1000,
    lines.some((line) => line.kind === 'message'),
  );
  const now = Math.max(tick, linesAt);

  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (element && isNearBottomRef.current) element.scrollTop = element.scrollHeight;
  }, [lastLineId]);

  const onScroll = () => {
    const element = scrollRef.current;
    if (!element) return;
    const distance = element.scrollHeight - element.scrollTop - element.clientHeight;
    isNearBottomRef.current = distance <= SCROLL_STICK_THRESHOLD_PX;
  };

  return (
    <div
      ref={scrollRef}
      onScroll={onScroll}
      tabIndex={0}
      role="log"
      aria-live="polite"
      aria-label="Messages"
      data-testid="message-list"
      className="min-h-0 flex-1 overflow-y-auto py-2"
    >
      {lines.length === 0 ? (
        <p className="px-3 py-6 text-center text-xs tracking-widest text-muted">{emptyText}</p>
      ) : null}
      <ol className="space-y-1">
        {lines.map((line) =>
          line.kind === 'message' ? (
            isSecurityNotice(line.message) ? (
              <SecurityNoticeRow key={line.id} text={line.message.content} />
            ) : (
              <MessageRow key={line.id} line={line} now={now} />
            )
          ) : (
            <SystemRow key={line.id} line={line} />
          ),
        )}
      </ol>
    </div>
  );
}
