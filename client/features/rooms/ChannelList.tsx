/**
 * The channel list panel: each row shows name, a security icon and the channel's clearance, and
 * opens the room. Below the server's list come the private channels this browser created or
 * entered (lib/rooms/known-rooms.ts), which the server lists to no one: each is looked up once,
 * and one the server no longer has (404) is dropped.
 */
import { useQueries, useQuery } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import { Link } from 'wouter';
import type { Room } from '../../../shared/protocol/http/rooms.js';
import { roomLabel } from '../../../shared/protocol/room-label.js';
import { HttpError } from '../../lib/http.js';
import { fetchRoom, fetchRooms, roomKeys } from '../../lib/rooms/api.js';
import { forgetKnownRoom, useKnownRooms, type KnownRoom } from '../../lib/rooms/known-rooms.js';

const LEVEL_ICON: Record<Room['securityLevel'], string> = {
  public: '◇',
  restricted: '◆',
  classified: '▲',
  top_secret: '■',
};

type ListedRoom = Pick<Room, 'secureId' | 'name' | 'isPrivate' | 'securityLevel'>;

/** The known private channels the server's list does not hold, checked against the server. */
export function useOwnChannels(rooms: readonly Room[] | undefined): KnownRoom[] {
  const known = useKnownRooms();
  const own = known.filter((item) => !rooms?.some((room) => room.secureId === item.secureId));
  const lookups = useQueries({
    queries: own.map((item) => ({
      queryKey: roomKeys.room(item.secureId),
      queryFn: () => fetchRoom(item.secureId),
    })),
  });
  const goneKey = own
    .filter((_, index) => {
      const error = lookups[index]?.error;
      return error instanceof HttpError && error.status === 404;
    })
    .map((item) => item.secureId)
    .join(',');
  useEffect(() => {
    for (const secureId of goneKey === '' ? [] : goneKey.split(',')) void forgetKnownRoom(secureId);
  }, [goneKey]);
  // A room's current name and level come from its lookup when it has answered.
  return own
    .map((item, index) => {
      const fresh = lookups[index]?.data;
      return fresh ? { ...item, name: fresh.name, securityLevel: fresh.securityLevel } : item;
    })
    .filter((item) => !goneKey.split(',').includes(item.secureId));
}

function ChannelRow({ room, isCurrent }: { room: ListedRoom; isCurrent: boolean }) {
  return (
    <li>
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
        <span
          className="rounded border border-border px-1 text-xs tracking-wider text-muted"
          data-testid="channel-clearance"
        >
          <span className="sr-only">clearance </span>
          {roomLabel(room)}
        </span>
      </Link>
    </li>
  );
}

export function ChannelList({ currentSecureId }: { currentSecureId: string }) {
  const {
    data: rooms,
    isLoading,
    isError,
  } = useQuery({ queryKey: roomKeys.all, queryFn: fetchRooms });
  const own = useOwnChannels(rooms);
  const headingId = useId();

  return (
    <nav aria-label="Channels" className="flex h-full flex-col" data-testid="channel-list">
      <h2 className="border-b border-border px-3 py-2 text-xs tracking-widest text-muted">
        SECURE CHANNELS
      </h2>
      {isLoading && <p className="px-3 py-2 text-xs text-muted">SCANNING...</p>}
      {isError && <p className="px-3 py-2 text-xs text-danger">CHANNEL REGISTRY UNREACHABLE</p>}
      <div className="flex-1 overflow-y-auto">
        <ul>
          {rooms?.map((room) => (
            <ChannelRow key={room.id} room={room} isCurrent={room.secureId === currentSecureId} />
          ))}
        </ul>
        {own.length > 0 ? (
          <section aria-labelledby={headingId} data-testid="own-channels">
            <h3
              id={headingId}
              className="border-y border-border px-3 py-2 text-xs tracking-widest text-muted"
            >
              YOUR PRIVATE CHANNELS
              <span className="sr-only"> (kept in this browser)</span>
            </h3>
            <ul>
              {own.map((room) => (
                <ChannelRow
                  key={room.secureId}
                  room={room}
                  isCurrent={room.secureId === currentSecureId}
                />
              ))}
            </ul>
          </section>
        ) : null}
      </div>
    </nav>
  );
}
