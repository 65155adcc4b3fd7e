/** How the User Management tab shows connected users. */

/** `42s`, `3m 12s`, `2h 05m` since `connectionTime`; `—` for an unreadable time. */
export function formatConnectedFor(connectionTime: string, now: number): string {
  const since = Date.parse(connectionTime);
  if (Number.isNaN(since)) return '—';
  const seconds = Math.max(0, Math.floor((now - since) / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}
