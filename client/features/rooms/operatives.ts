/** The participant list's search and order (spec 000 §2 "Room participant list"). */
import type { RoomUser } from '../../../shared/protocol/ws/chat.js';

/**
 * Members whose callsign contains `search` (case-insensitive, trimmed), this tab's node first,
 * then by callsign.
 */
export function filterOperatives(
  users: readonly RoomUser[],
  search: string,
  currentNodeId: string | null,
): RoomUser[] {
  const needle = search.trim().toLowerCase();
  return users
    .filter((user) => needle === '' || user.username.toLowerCase().includes(needle))
    .sort((a, b) => {
      if (a.nodeId === currentNodeId) return -1;
      if (b.nodeId === currentNodeId) return 1;
      return a.username.localeCompare(b.username);
    });
}
