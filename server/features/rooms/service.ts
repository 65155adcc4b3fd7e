/** Room domain logic: no Fastify, no sockets, no SQL. */
import { randomUUID } from 'node:crypto';
import { generateRoomSecureId, isRoomSecureId } from '../../../shared/ids.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import type { Room } from '../../../shared/protocol/http/rooms.js';
import { AppError } from '../../errors.js';
import type { RoomRow, RoomStore } from './store.js';

/** Name of the public room created on first start. */
export const DEFAULT_ROOM_NAME = 'Public Channel';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The Room entity as clients see it; the access-code hash never leaves the server. */
export function toRoom(row: RoomRow): Room {
  return {
    id: row.id,
    secureId: row.secureId,
    name: row.name,
    isPrivate: row.isPrivate,
    securityLevel: row.securityLevel,
    selfDestructTimer: row.selfDestructTimer,
    destructionAt: row.destructionAt ? row.destructionAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
  };
}

export class RoomService {
  constructor(private readonly store: RoomStore) {}

  /** Creates the default public room on first start; later starts find it. */
  async ensureDefaultRoom(): Promise<Room> {
    const existing = await this.store.findDefault();
    if (existing) return toRoom(existing);
    const created = await this.store.ensureDefault({
      id: randomUUID(),
      secureId: generateRoomSecureId(),
      name: DEFAULT_ROOM_NAME,
      isPrivate: false,
      securityLevel: 'public',
    });
    return toRoom(created);
  }

  async defaultRoom(): Promise<Room> {
    const row = await this.store.findDefault();
    if (!row) throw new AppError('ROOM_NOT_FOUND', 404, TEXT.roomNotFound);
    return toRoom(row);
  }

  async listRooms(): Promise<Room[]> {
    return (await this.store.list()).map(toRoom);
  }

  /** Looks a room up by its 64-hex secure id or its id; 404 for anything else. */
  async getRoom(idOrSecureId: string): Promise<Room> {
    const row = await this.findRow(idOrSecureId);
    if (!row) throw new AppError('ROOM_NOT_FOUND', 404, TEXT.roomNotFound);
    return toRoom(row);
  }

  private async findRow(idOrSecureId: string): Promise<RoomRow | null> {
    if (isRoomSecureId(idOrSecureId)) return this.store.findBySecureId(idOrSecureId);
    if (UUID.test(idOrSecureId)) return this.store.findById(idOrSecureId);
    return null;
  }
}
