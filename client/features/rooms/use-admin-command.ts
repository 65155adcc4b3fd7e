/**
 * Hook point for the admin panel (spec 000 §2 "Chat commands", spec 001 §2 "Admin panel"): what
 * happens when an admin types /admin. The admin panel has its own issue; until it lands the
 * command answers with a local system line. That issue replaces the body of this hook with the
 * function that opens the panel; the chat screen needs no other change.
 */
import { useCallback } from 'react';
import { type SystemLevel } from '../messages/chat-line.js';

/** What /admin shows an admin until the admin panel lands. */
export const ADMIN_PANEL_PENDING_TEXT = 'Admin panel: see the admin tools';

export function useAdminCommand(
  addLocalLine: (text: string, level?: SystemLevel) => void,
): () => void {
  return useCallback(() => addLocalLine(ADMIN_PANEL_PENDING_TEXT), [addLocalLine]);
}
