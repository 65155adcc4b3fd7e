/** The admin key list (spec 001 §2 "Key Management", §3): expiry, state, level badge, order. */
import { describe, expect, it } from 'vitest';
import {
  countKeyStates,
  formatKeyExpiry,
  keyState,
  levelTone,
  shortKeyId,
  sortKeysForDisplay,
  type AdminKey,
} from '../../../../client/features/admin/key-list.js';

const now = new Date('2025-06-01T00:00:00Z');

function key(overrides: Partial<AdminKey> & { id: string }): AdminKey {
  const { id, ...rest } = overrides;
  return {
    keyId: `SCK${id.padStart(32, '0')}`,
    username: `user-${id}`,
    permissions: { level: 'user' },
    expires: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    revoked: false,
    fingerprint: 'f'.repeat(64),
    ...rest,
  };
}

describe('key list formatting', () => {
  it('shows NEVER for keys without expiry and a UTC minute otherwise', () => {
    expect(formatKeyExpiry(null)).toBe('NEVER');
    expect(formatKeyExpiry('2026-03-04T05:06:07.000Z')).toBe('2026-03-04 05:06 UTC');
    expect(formatKeyExpiry('not a date')).toBe('INVALID DATE');
  });

  it('calls a revoked key revoked whatever its date, and an expired one expired', () => {
    expect(keyState(key({ id: '1' }), now)).toBe('active');
    expect(keyState(key({ id: '2', expires: '2025-05-31T23:59:59.000Z' }), now)).toBe('expired');
    expect(keyState(key({ id: '3', expires: '2030-01-01T00:00:00.000Z' }), now)).toBe('active');
    expect(
      keyState(key({ id: '4', revoked: true, expires: '2020-01-01T00:00:00.000Z' }), now),
    ).toBe('revoked');
  });

  it('shows admin as a destructive badge', () => {
    expect(levelTone('admin')).toBe('danger');
    expect(levelTone('user')).toBe('accent');
    expect(levelTone('observer')).toBe('muted');
    expect(levelTone('guest')).toBe('muted');
  });

  it('shortens key ids but keeps their start and end', () => {
    const id = `SCK${'0123456789abcdef'.repeat(2)}`;
    expect(shortKeyId(id)).toBe('SCK01234567…cdef');
    expect(shortKeyId('SCK123')).toBe('SCK123');
  });

  it('lists active keys first, then expired, then revoked, newest first within each', () => {
    const keys = [
      key({ id: 'a', revoked: true, createdAt: '2025-05-01T00:00:00.000Z' }),
      key({ id: 'b', createdAt: '2025-02-01T00:00:00.000Z' }),
      key({ id: 'c', expires: '2025-01-02T00:00:00.000Z' }),
      key({ id: 'd', createdAt: '2025-04-01T00:00:00.000Z' }),
    ];
    expect(sortKeysForDisplay(keys, now).map((item) => item.username)).toEqual([
      'user-d',
      'user-b',
      'user-c',
      'user-a',
    ]);
    expect(countKeyStates(keys, now)).toEqual({ active: 2, expired: 1, revoked: 1 });
  });
});
