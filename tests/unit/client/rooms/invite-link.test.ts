import { describe, expect, it } from 'vitest';
import { buildInviteLink, utf8ToBase64 } from '../../../../client/features/rooms/invite-link.js';

const SECURE_ID = 'a'.repeat(64);

function decodeAuth(link: string): unknown {
  const auth = new URL(link).searchParams.get('auth') ?? '';
  const bytes = Uint8Array.from(atob(auth), (char) => char.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes));
}

describe('buildInviteLink (spec 000 §2 top-secret invite link)', () => {
  it('points at /room/{secureId} on the origin with the room name and timestamp in auth', () => {
    const link = buildInviteLink('https://chat.example', { secureId: SECURE_ID, name: 'Ops' }, 42);
    expect(link.startsWith(`https://chat.example/room/${SECURE_ID}?auth=`)).toBe(true);
    expect(decodeAuth(link)).toEqual({ room: 'Ops', ts: 42 });
  });

  it('gives the same text as btoa for a Latin-1 name', () => {
    const link = buildInviteLink('http://h', { secureId: SECURE_ID, name: 'ops' }, 1);
    const expected = encodeURIComponent(btoa(JSON.stringify({ room: 'ops', ts: 1 })));
    expect(link).toBe(`http://h/room/${SECURE_ID}?auth=${expected}`);
  });

  it('survives names beyond Latin-1, where btoa alone would throw', () => {
    const link = buildInviteLink('http://h', { secureId: SECURE_ID, name: 'Отдел 🔐' }, 7);
    expect(decodeAuth(link)).toEqual({ room: 'Отдел 🔐', ts: 7 });
  });

  it('carries nothing but the name and the time', () => {
    const link = buildInviteLink('http://h', { secureId: SECURE_ID, name: 'x' }, 7);
    expect(Object.keys(decodeAuth(link) as object).sort()).toEqual(['room', 'ts']);
  });
});

describe('utf8ToBase64', () => {
  it('encodes UTF-8 bytes', () => {
    expect(utf8ToBase64('é')).toBe('w6k=');
  });
});
