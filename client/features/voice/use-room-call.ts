/**
 * Whether the room has a call on, and how many are in it, from the frames every member receives
 * (`voice_call_participants`, `voice_call_end`): the header's voice button says JOIN CALL then.
 * Small and always loaded; the call itself loads only when joined.
 */
import { useEffect, useState } from 'react';
import { type ChatSocket } from '../../lib/realtime/chat-socket.js';

export function useRoomCallSize(onFrame: ChatSocket['on'], roomId: string | null): number {
  const [call, setCall] = useState<{ roomId: string; size: number } | null>(null);
  useEffect(() => {
    const offs = [
      onFrame('voice_call_participants', (frame) =>
        setCall({ roomId: frame.roomId, size: frame.participants.length }),
      ),
      onFrame('voice_call_end', (frame) => setCall({ roomId: frame.roomId, size: 0 })),
    ];
    return () => {
      for (const off of offs) off();
    };
  }, [onFrame]);
  return call !== null && call.roomId === roomId ? call.size : 0;
}
