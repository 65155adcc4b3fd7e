/** The read side of the room API (spec 000 §7), against PGlite and against PostgreSQL. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoomListSchema, RoomSchema, DefaultRoomSchema } from '../../shared/protocol/http/rooms.js';
import { BACKENDS } from '../support/database.js';
import { startServer, type TestServer } from '../support/server.js';

describe.each(BACKENDS)('room read API on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ backend });
  });
  afterAll(async () => {
    await server.stop();
  });

  const get = (path: string) => fetch(`${server.baseUrl}${path}`);

  it('creates a public default room with a 64-hex secure id on first start', async () => {
    const response = await get('/api/default-room');
    expect(response.status).toBe(200);
    const body = DefaultRoomSchema.parse(await response.json());
    expect(body.secureId).toMatch(/^[0-9a-f]{64}$/);
  });

  it('lists rooms shaped as the Room entity, the default room among them', async () => {
    const { secureId } = DefaultRoomSchema.parse(await (await get('/api/default-room')).json());
    const rooms = RoomListSchema.parse(await (await get('/api/rooms')).json());
    const room = rooms.find((candidate) => candidate.secureId === secureId);
    expect(room).toMatchObject({
      isPrivate: false,
      securityLevel: 'public',
      selfDestructTimer: null,
    });
    expect(JSON.stringify(rooms)).not.toMatch(/accessCode|hash/i);
  });

  it('finds a room by secure id and by id', async () => {
    const { secureId } = DefaultRoomSchema.parse(await (await get('/api/default-room')).json());
    const bySecureId = RoomSchema.parse(await (await get(`/api/rooms/${secureId}`)).json());
    const byId = RoomSchema.parse(await (await get(`/api/rooms/${bySecureId.id}`)).json());
    expect(byId).toEqual(bySecureId);
  });

  it('answers 404 with an error body for an unknown secure id, id or malformed id', async () => {
    for (const id of [
      'f'.repeat(64),
      '00000000-0000-4000-8000-000000000000',
      'not-a-room',
      'A'.repeat(64),
    ]) {
      const response = await get(`/api/rooms/${id}`);
      expect(response.status, id).toBe(404);
      expect(await response.json()).toEqual({ error: 'Room not found' });
    }
  });

  it('keeps one default room when the service starts again on the same database', async () => {
    const before = await server.rooms.defaultRoom();
    const again = await server.rooms.ensureDefaultRoom();
    expect(again.secureId).toBe(before.secureId);
    const rows = await server.database.query<{ count: string }>(
      'SELECT count(*)::text AS count FROM rooms WHERE is_default',
    );
    expect(rows[0]?.count).toBe('1');
  });
});
