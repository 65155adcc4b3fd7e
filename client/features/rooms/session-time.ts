/** The session timer's text (spec 000 §4): mm:ss, or hh:mm:ss from the first hour on. */
export function formatSessionTime(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const pad = (value: number) => String(value).padStart(2, '0');
  const tail = `${pad(minutes)}:${pad(seconds % 60)}`;
  return hours > 0 ? `${pad(hours)}:${tail}` : tail;
}

/** The unread part of the page title (spec 000 §2): the count, capped and shown as 99+. */
export function formatUnreadCount(count: number, cap: number): string {
  return count > cap ? `${cap}+` : String(count);
}
