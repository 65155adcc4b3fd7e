/** Room calls of the client, each answer parsed by its shared schema. */
import {
  DefaultRoomSchema,
  RoomListSchema,
  RoomSchema,
  type DefaultRoom,
  type Room,
  type RoomList,
} from '../../../shared/protocol/http/rooms.js';
import { apiRequest } from '../../lib/http.js';

export const roomKeys = {
  all: ['rooms'] as const,
  defaultRoom: ['rooms', 'default'] as const,
  room: (secureId: string) => ['rooms', 'by-secure-id', secureId] as const,
};

export function fetchDefaultRoom(): Promise<DefaultRoom> {
  return apiRequest('/api/default-room', DefaultRoomSchema);
}

export function fetchRooms(): Promise<RoomList> {
  return apiRequest('/api/rooms', RoomListSchema);
}

export function fetchRoom(secureId: string): Promise<Room> {
  return apiRequest(`/api/rooms/${encodeURIComponent(secureId)}`, RoomSchema);
}
