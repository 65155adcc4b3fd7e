/** The channel selector for narrow screens, where the channel list panel is hidden (spec 000 §2). */
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useLocation } from 'wouter';
import type { Room } from '../../../shared/protocol/http/rooms.js';
import { roomLabel } from '../../../shared/protocol/room-label.js';
import { fetchRooms, roomKeys } from '../../lib/rooms/api.js';
import { useOwnChannels } from './ChannelList.js';

export function ChannelSelect({ room }: { room: Room | null }) {
  const id = useId();
  const [, navigate] = useLocation();
  const { data } = useQuery({ queryKey: roomKeys.all, queryFn: fetchRooms });
  const rooms = data ?? [];
  // The private channels this browser created or entered follow the server's list.
  const listed = [...rooms, ...useOwnChannels(data)];
  // The current room is listed even when the list does not (yet) hold it.
  const options =
    room && !listed.some((item) => item.secureId === room.secureId) ? [room, ...listed] : listed;

  return (
    <div className="flex min-w-0 basis-full items-center gap-2 md:hidden">
      <label htmlFor={id} className="shrink-0 text-xs tracking-widest text-muted">
        CHANNEL
      </label>
      <select
        id={id}
        data-testid="channel-select"
        value={room?.secureId ?? ''}
        onChange={(event) => navigate(`/chat/${event.currentTarget.value}`)}
        className="min-w-0 flex-1 border border-border bg-background px-1 py-1 text-xs text-fg"
      >
        {room === null ? <option value="">LOADING...</option> : null}
        {options.map((item) => (
          <option key={item.secureId} value={item.secureId}>
            #{item.name} ({roomLabel(item)})
          </option>
        ))}
      </select>
    </div>
  );
}
