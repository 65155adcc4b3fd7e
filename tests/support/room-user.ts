/** A member-list entry (`RoomUser`) for tests: online, an ordinary anonymous member, unless told. */
import type { RoomUser } from '../../shared/protocol/ws/chat.js';

/** Since when the entry's member has been there (its connection and last-seen times). */
const SINCE = '2030-01-01T00:00:00.000Z';

export function roomUser(
  nodeId: string,
  username: string,
  overrides: Partial<RoomUser> = {},
): RoomUser {
  return {
    nodeId,
    username,
    status: 'online',
    role: 'user',
    isAuthenticated: false,
    connectionTime: SINCE,
    lastSeen: SINCE,
    isVoiceActive: false,
    secureId: null,
    ...overrides,
  };
}
