/**
 * The page title (spec 000 §2): the room's title normally; while the tab is hidden and messages
 * from others have arrived, the unread count (capped at 99, shown as 99+) blinking in and out
 * every TITLE_BLINK_MS. Coming back to the tab clears the count.
 */
import { useCallback, useEffect, useState } from 'react';
import { TITLE_BLINK_MS, UNREAD_TITLE_CAP } from '../../../shared/constants.js';
import { formatUnreadCount } from './session-time.js';

export function useUnreadTitle(baseTitle: string): { notifyUnread: () => void; unread: number } {
  const [unread, setUnread] = useState(0);
  const [isBlinkOn, setBlinkOn] = useState(true);

  useEffect(() => {
    const onVisibility = () => {
      if (!document.hidden) setUnread(0);
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, []);

  useEffect(() => {
    if (unread === 0) return;
    const timer = window.setInterval(() => setBlinkOn((on) => !on), TITLE_BLINK_MS);
    return () => window.clearInterval(timer);
  }, [unread]);

  useEffect(() => {
    document.title =
      unread > 0 && isBlinkOn
        ? `(${formatUnreadCount(unread, UNREAD_TITLE_CAP)}) NEW · ${baseTitle}`
        : baseTitle;
  }, [unread, isBlinkOn, baseTitle]);

  const notifyUnread = useCallback(() => {
    if (document.hidden) setUnread((count) => count + 1);
  }, []);

  return { notifyUnread, unread };
}
