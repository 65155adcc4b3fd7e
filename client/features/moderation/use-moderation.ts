/**
 * This tab's moderation state in the room (its role, the lock, its own mute) from the server's
 * `moderation_state` frames, and the member menu's actions as frames. A removal
 * (`removed_from_room`) is handled by the chat room itself (use-chat-room.ts).
 */
import { useEffect, useState } from 'react';
import type { ModerationRole } from '../../../shared/moderation/permissions.js';
import type { ClientFrame } from '../../../shared/protocol/ws/index.js';
import { type ChatSocket } from '../../lib/realtime/chat-socket.js';
import { type MemberAction } from './member-actions.js';

export interface ModerationState {
  roomId: string | null;
  role: ModerationRole;
  isLocked: boolean;
  /** ISO time the viewer's mute ends, or null. */
  mutedUntil: string | null;
}

const INITIAL: ModerationState = {
  roomId: null,
  role: 'member',
  isLocked: false,
  mutedUntil: null,
};

export function useModeration(
  onFrame: ChatSocket['on'],
  send: (frame: ClientFrame) => boolean,
  roomId: string | null,
) {
  const [state, setState] = useState<ModerationState>(INITIAL);

  useEffect(
    () =>
      onFrame('moderation_state', (frame) =>
        setState({
          roomId: frame.roomId,
          role: frame.role,
          isLocked: frame.isLocked,
          mutedUntil: frame.mutedUntil,
        }),
      ),
    [onFrame],
  );

  const current = state.roomId === roomId ? state : { ...INITIAL, roomId };

  /** Sends the frame of a member-menu action aimed at `nodeId`. */
  const act = (action: MemberAction, nodeId: string): boolean => {
    switch (action.id) {
      case 'mute':
        return send({ type: 'mute_member', nodeId, minutes: action.minutes ?? 10 });
      case 'unmute':
        return send({ type: 'unmute_member', nodeId });
      case 'kick':
        return send({ type: 'kick_member', nodeId });
      case 'ban':
        return send({ type: 'ban_member', nodeId, minutes: action.minutes ?? 60 });
      case 'ban_permanent':
        return send({ type: 'ban_member', nodeId, minutes: null });
      case 'appoint':
        return send({ type: 'appoint_moderator', nodeId });
      case 'dismiss':
        return send({ type: 'remove_moderator', nodeId });
    }
  };

  return { ...current, act };
}
