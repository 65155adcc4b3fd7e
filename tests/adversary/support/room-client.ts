/**
 * A room client for the adversary tests: real WebSocket and HTTP against one server, joining as a
 * key holder (its session from `tokens`) or an anonymous callsign from a chosen local address.
 */
import { expect } from 'vitest';
import type { KeyFile } from '../../../shared/crypto/key-file-schema.js';
import { RoomSchema, type Room } from '../../../shared/protocol/http/rooms.js';
import { TestSocket } from '../../support/ws-client.js';

/** sha256 hex of an access code, as the browser sends it. */
export async function codeHash(code: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(code));
  return Buffer.from(digest).toString('hex');
}

/** The parts of a server the scenarios need, in process or in a child process. */
export interface Target {
  baseUrl: string;
  wsUrl: string;
}

export function client(target: Target, sockets: TestSocket[], tokens: Map<string, string>) {
  const httpTo = (path: string, init: RequestInit = {}) =>
    fetch(`${target.baseUrl}${path}`, {
      ...init,
      headers: { 'content-type': 'application/json', ...init.headers },
    });

  async function createRoom(by: KeyFile, body: Record<string, unknown> = {}): Promise<Room> {
    const response = await httpTo('/api/rooms', {
      method: 'POST',
      body: JSON.stringify({ name: `rm-${Math.random().toString(36).slice(2, 8)}`, ...body }),
      headers: { authorization: `Bearer ${tokens.get(by.keyId)}` },
    });
    expect(response.status).toBe(200);
    return RoomSchema.parse(await response.json());
  }

  /** Joins as a key holder or an anonymous callsign, from `localAddress`. */
  async function join(
    room: Room,
    who: KeyFile | string,
    options: { localAddress?: string; accessToken?: string | null } = {},
  ) {
    const socket = await TestSocket.connect(target.wsUrl, {
      localAddress: options.localAddress ?? '127.0.0.1',
    });
    sockets.push(socket);
    socket.send({
      type: 'join_room',
      roomId: room.secureId,
      ...(typeof who === 'string'
        ? { username: who }
        : { username: who.username, sessionToken: tokens.get(who.keyId) }),
      ...(options.accessToken ? { accessToken: options.accessToken } : {}),
    });
    const joined = await socket.next(
      (frame) => frame.type === 'room_joined' || frame.type === 'error',
      20_000,
    );
    return {
      socket,
      joined,
      nodeId: joined.nodeId as string,
      grant: joined.accessToken as string,
    };
  }

  async function member(room: Room, who: KeyFile | string, localAddress?: string) {
    const result = await join(room, who, localAddress ? { localAddress } : {});
    expect(result.joined.type, JSON.stringify(result.joined)).toBe('room_joined');
    await result.socket.nextOfType('moderation_state', 20_000);
    return result;
  }

  const verifyCode = async (room: Room, code: string) =>
    (await (
      await httpTo(`/api/rooms/${room.secureId}/verify-password`, {
        method: 'POST',
        body: JSON.stringify({ password: await codeHash(code) }),
      })
    ).json()) as { valid: boolean; accessToken: string | null };

  const iceStatus = async (grant: string) =>
    (await httpTo('/api/voice/ice-servers', { headers: { 'x-room-access': grant } })).status;
  const imageStatus = async (imageUrl: string, grant: string) =>
    (await fetch(`${target.baseUrl}${imageUrl}`, { headers: { 'x-room-access': grant } })).status;

  return { http: httpTo, createRoom, join, member, verifyCode, iceStatus, imageStatus };
}
