/** The channel list panel: each row shows name, a security icon and badge, and opens the room. */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import type { Room } from '../../../shared/protocol/http/rooms.js';
import { roomLabel } from '../../../shared/protocol/room-label.js';
import { fetchRooms, roomKeys } from '../../lib/rooms/api.js';

const LEVEL_ICON: Record<Room['securityLevel'], string> = {
  public: '◇',
  restricted: '◆',
  classified: '▲',
  top_secret: '■',
};

export function ChannelList({ currentSecureId }: { currentSecureId: string }) {
  const {
    data: rooms,
    isLoading,
    isError,
  } = useQuery({ queryKey: roomKeys.all, queryFn: fetchRooms });

  return (
    <nav aria-label="Channels" className="flex h-full flex-col" data-testid="channel-list">
      <h2 className="border-b border-border px-3 py-2 text-xs tracking-widest text-muted">
        SECURE CHANNELS
      </h2>
      {isLoading && <p className="px-3 py-2 text-xs text-muted">SCANNING...</p>}
      {isError && <p className="px-3 py-2 text-xs text-danger">CHANNEL REGISTRY UNREACHABLE</p>}
      <ul className="flex-1 overflow-y-auto">
        {rooms?.map((room) => {
          const isCurrent = room.secureId === currentSecureId;
          return (
            <li key={room.id}>
              <Link
                href={`/chat/${room.secureId}`}
                aria-current={isCurrent ? 'page' : undefined}
                className={`flex items-center gap-2 px-3 py-2 text-sm hover:bg-primary/10 ${
                  isCurrent ? 'bg-primary/15 text-primary' : 'text-fg'
                }`}
              >
                <span aria-hidden="true" className="text-accent">
                  {LEVEL_ICON[room.securityLevel]}
                </span>
                <span className="flex-1 truncate">#{room.name}</span>
                <span className="rounded border border-border px-1 text-[10px] tracking-wider text-muted">
                  {roomLabel(room)}
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
