/** Room calls of the client, each answer parsed by its shared schema. */
import type { DefaultRoom, Room, RoomList } from '../../../shared/protocol/http/rooms.js';
import { apiRequest } from '../http.js';

export const roomKeys = {
  all: ['rooms'] as const,
  defaultRoom: ['rooms', 'default'] as const,
  room: (secureId: string) => ['rooms', 'by-secure-id', secureId] as const,
  /** The channels this browser created or joined (known-rooms.ts), from localStorage. */
  known: ['rooms', 'known'] as const,
};

/**
 * The room calls' schemas (and zod) are fetched with the first call, in parallel with its
 * request, so that the chat room paints without zod (issue 22, target 5); every answer is still
 * parsed before use, and a schema that fails to load fails the call.
 */
function roomSchemas() {
  return import('../../../shared/protocol/http/rooms.js');
}

export function fetchDefaultRoom(): Promise<DefaultRoom> {
  return apiRequest(
    '/api/default-room',
    roomSchemas().then((m) => m.DefaultRoomSchema),
  );
}

export function fetchRooms(): Promise<RoomList> {
  return apiRequest(
    '/api/rooms',
    roomSchemas().then((m) => m.RoomListSchema),
  );
}

export function fetchRoom(secureId: string): Promise<Room> {
  return apiRequest(
    `/api/rooms/${encodeURIComponent(secureId)}`,
    roomSchemas().then((m) => m.RoomSchema),
  );
}
