/** The rooms feature: what other features and app.ts may use. */
import type { Db } from '../../db/connect.js';
import { roomRoutes } from './routes.js';
import { RoomService } from './service.js';
import { createRoomStore } from './store.js';

export { RoomService, DEFAULT_ROOM_NAME, toRoom } from './service.js';
export type { RoomStore, RoomRow } from './store.js';

/** Builds the rooms feature on a database. */
export function createRoomsFeature(db: Db) {
  const service = new RoomService(createRoomStore(db));
  return { service, routes: roomRoutes(service) };
}
