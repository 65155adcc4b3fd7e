/**
 * The channels this browser created or joined, kept in localStorage (`knownRooms`) so that a
 * private channel, which the public channel list does not show, can be found again after leaving
 * it. Only what the room lookup shows anyone anyway is kept (id, secure id, name, level): never an
 * access code or a token. A room the server calls destroyed (`room_destroyed`, or 404 on lookup)
 * is removed.
 *
 * The list functions are pure; the storage functions load the schema (and zod) on demand.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { KNOWN_ROOMS_MAX } from '../../../shared/constants.js';
import type { Room } from '../../../shared/protocol/http/rooms.js';
import { readStorage, STORAGE_KEYS, writeStorage } from '../storage-keys.js';
import { roomKeys } from './api.js';
import type { KnownRoom } from './known-rooms-schema.js';

export type { KnownRoom } from './known-rooms-schema.js';

/**
 * The list with `room` first: added, or moved up and refreshed when its secure id is already
 * there. A room once created here stays marked created.
 */
export function addKnownRoom(
  list: readonly KnownRoom[],
  room: Pick<Room, 'id' | 'secureId' | 'name' | 'isPrivate' | 'securityLevel'>,
  role: KnownRoom['role'],
  now: number,
): KnownRoom[] {
  const previous = list.find((item) => item.secureId === room.secureId);
  const entry: KnownRoom = {
    id: room.id,
    secureId: room.secureId,
    name: room.name,
    isPrivate: room.isPrivate,
    securityLevel: room.securityLevel,
    role: previous?.role === 'created' ? 'created' : role,
    seenAt: now,
  };
  return [entry, ...list.filter((item) => item.secureId !== room.secureId)].slice(
    0,
    KNOWN_ROOMS_MAX,
  );
}

/** The list without the room named by its id or secure id. */
export function removeKnownRoom(list: readonly KnownRoom[], idOrSecureId: string): KnownRoom[] {
  return list.filter((item) => item.id !== idOrSecureId && item.secureId !== idOrSecureId);
}

const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

/** The stored list, parsed; unavailable storage or bad content gives an empty list. */
export async function loadKnownRooms(): Promise<KnownRoom[]> {
  const { parseKnownRooms } = await import('./known-rooms-schema.js');
  return parseKnownRooms(readStorage(STORAGE_KEYS.knownRooms));
}

async function update(change: (list: KnownRoom[]) => KnownRoom[]): Promise<void> {
  const list = await loadKnownRooms();
  const next = change(list);
  if (JSON.stringify(next) === JSON.stringify(list)) return;
  writeStorage(STORAGE_KEYS.knownRooms, JSON.stringify(next));
  notify();
}

/** Remembers a channel this browser created or entered. */
export function rememberKnownRoom(
  room: Pick<Room, 'id' | 'secureId' | 'name' | 'isPrivate' | 'securityLevel'>,
  role: KnownRoom['role'],
  now: number = Date.now(),
): Promise<void> {
  return update((list) => addKnownRoom(list, room, role, now));
}

/** Forgets a channel the server says is destroyed (by its id or secure id). */
export function forgetKnownRoom(idOrSecureId: string): Promise<void> {
  return update((list) => removeKnownRoom(list, idOrSecureId));
}

/** The stored channels, kept current when this tab adds or removes one. */
export function useKnownRooms(): KnownRoom[] {
  const queryClient = useQueryClient();
  const { data = [] } = useQuery({ queryKey: roomKeys.known, queryFn: loadKnownRooms });
  useEffect(() => {
    const listener = () => void queryClient.invalidateQueries({ queryKey: roomKeys.known });
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }, [queryClient]);
  return data;
}
