import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  getRoomAccessToken,
  parseRoomAccessToken,
  roomAccessStorageKey,
  setRoomAccessToken,
} from '../../../../client/lib/rooms/room-access.js';
import { fakeStorage } from '../../../support/fake-storage.js';

const ROOM_ID = '6f1c2a8e-0000-4000-8000-000000000001';
const TOKEN = 'Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdo';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('parseRoomAccessToken', () => {
  it('keeps a base64url token', () => {
    expect(parseRoomAccessToken(TOKEN)).toBe(TOKEN);
    expect(parseRoomAccessToken('a-b_c')).toBe('a-b_c');
  });

  it('gives null for nothing stored, empty text, JSON or other garbage', () => {
    expect(parseRoomAccessToken(null)).toBeNull();
    expect(parseRoomAccessToken('')).toBeNull();
    expect(parseRoomAccessToken('{"token":"x"}')).toBeNull();
    expect(parseRoomAccessToken('has space')).toBeNull();
    expect(parseRoomAccessToken('x'.repeat(201))).toBeNull();
  });
});

describe('getRoomAccessToken / setRoomAccessToken', () => {
  it('stores the token under securechannel_room_access:<roomId> and reads it back', () => {
    const storage = fakeStorage();
    vi.stubGlobal('window', { sessionStorage: storage });
    setRoomAccessToken(ROOM_ID, TOKEN);
    expect(roomAccessStorageKey(ROOM_ID)).toBe(`securechannel_room_access:${ROOM_ID}`);
    expect(storage.entries.get(`securechannel_room_access:${ROOM_ID}`)).toBe(TOKEN);
    expect(getRoomAccessToken(ROOM_ID)).toBe(TOKEN);
    expect(getRoomAccessToken('another-room')).toBeNull();
  });

  it('ignores a tampered stored value', () => {
    const storage = fakeStorage();
    storage.entries.set(roomAccessStorageKey(ROOM_ID), '<script>');
    vi.stubGlobal('window', { sessionStorage: storage });
    expect(getRoomAccessToken(ROOM_ID)).toBeNull();
  });

  it('does not store a malformed token', () => {
    const storage = fakeStorage();
    vi.stubGlobal('window', { sessionStorage: storage });
    setRoomAccessToken(ROOM_ID, 'not a token');
    expect(storage.entries.size).toBe(0);
  });

  it('gives null and does not throw when storage refuses', () => {
    vi.stubGlobal('window', { sessionStorage: fakeStorage({ refuse: true }) });
    expect(() => setRoomAccessToken(ROOM_ID, TOKEN)).not.toThrow();
    expect(getRoomAccessToken(ROOM_ID)).toBeNull();
  });
});
