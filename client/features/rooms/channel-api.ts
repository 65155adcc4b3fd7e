/**
 * Room calls behind the channel dialogs: create, access-code check, self-destruct timer and the
 * connected-node list. Every answer is parsed by its shared schema.
 */
import {
  ConnectedNodesSchema,
  RoomSchema,
  VerifyRoomPasswordResponseSchema,
  type ConnectedNodes,
  type CreateRoomRequest,
  type Room,
  type VerifyRoomPasswordResponse,
} from '../../../shared/protocol/http/rooms.js';
import { HttpError, apiRequest } from '../../lib/http.js';
import { getRoomAccessToken } from '../../lib/rooms/room-access.js';

/** Header carrying a room access token on calls that need room access (server contract). */
export const ROOM_ACCESS_HEADER = 'x-room-access';

export const connectedNodeKeys = {
  all: ['connected-nodes'] as const,
  room: (roomId: string | null) => ['connected-nodes', roomId ?? 'all'] as const,
};

/** `POST /api/rooms`; `passwordHash` is already the SHA-256 hex (null for public rooms). */
export function createRoom(request: CreateRoomRequest): Promise<Room> {
  return apiRequest('/api/rooms', RoomSchema, { method: 'POST', body: request });
}

/** `POST /api/rooms/{id}/verify-password` with the SHA-256 hex of the access code. */
export function verifyRoomAccessCode(
  roomIdOrSecureId: string,
  passwordHash: string,
): Promise<VerifyRoomPasswordResponse> {
  return apiRequest(
    `/api/rooms/${encodeURIComponent(roomIdOrSecureId)}/verify-password`,
    VerifyRoomPasswordResponseSchema,
    { method: 'POST', body: { password: passwordHash } },
  );
}

/**
 * `PATCH /api/rooms/{id}/self-destruct`; null disables the timer. Sends this tab's access token
 * for the room when it has one; a key holder's bearer token (added by apiRequest) also suffices.
 */
export function setRoomSelfDestruct(room: Room, minutes: number | null): Promise<Room> {
  const token = getRoomAccessToken(room.id);
  return apiRequest(`/api/rooms/${encodeURIComponent(room.id)}/self-destruct`, RoomSchema, {
    method: 'PATCH',
    body: { selfDestructTimer: minutes },
    headers: token ? { [ROOM_ACCESS_HEADER]: token } : {},
  });
}

/** `GET /api/connected-ips[?roomId=]`: node ids and callsigns, never addresses. */
export function fetchConnectedNodes(roomId: string | null): Promise<ConnectedNodes> {
  const query = roomId ? `?roomId=${encodeURIComponent(roomId)}` : '';
  return apiRequest(`/api/connected-ips${query}`, ConnectedNodesSchema);
}

/** The server's `{error}` text of a failed call, when it sent one; null otherwise. */
export function serverErrorText(error: unknown): string | null {
  return error instanceof HttpError ? error.serverError : null;
}
