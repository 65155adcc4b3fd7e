import { describe, expect, it } from 'vitest';
import {
  CallsignSchema,
  isCallsign,
  KeyIdSchema,
  generateCallsign,
  generateKeyId,
  generateRoomSecureId,
  generateUserId,
  isRoomSecureId,
  normalizeSecureId,
  secureIdForKey,
  UserIdSchema,
} from '../../../shared/ids.js';

describe('identifiers', () => {
  it('makes room secure ids of 64 lowercase hex digits and accepts only those', () => {
    const id = generateRoomSecureId();
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    expect(isRoomSecureId(id)).toBe(true);
    expect(isRoomSecureId(id.toUpperCase())).toBe(false);
    expect(isRoomSecureId(id.slice(1))).toBe(false);
  });

  it('makes key ids and user ids of the wire format', () => {
    expect(KeyIdSchema.parse(generateKeyId())).toMatch(/^SCK[0-9a-f]{32}$/);
    expect(UserIdSchema.parse(generateUserId())).toMatch(/^USR[0-9a-f]{32}$/);
    expect(KeyIdSchema.safeParse('SCKXYZ').success).toBe(false);
  });

  it('derives the secure id from characters 3 to 10 of the key id, upper-cased', () => {
    expect(secureIdForKey('SCKabcdef0123456789abcdef0123456789')).toBe('SCK_ABCDEF01');
    expect(normalizeSecureId('SCK_ABCDEF01')).toBe('SCK_abcdef01');
    expect(normalizeSecureId('sck_ABCdef01')).toBe('SCK_abcdef01');
  });

  it('draws callsigns from the eight prefixes and 1 to 9999', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i += 1) {
      const callsign = generateCallsign();
      expect(CallsignSchema.safeParse(callsign).success).toBe(true);
      seen.add(callsign.replace(/[0-9]+$/, ''));
      const number = Number(callsign.replace(/^[A-Za-z]+/, ''));
      expect(number).toBeGreaterThanOrEqual(1);
      expect(number).toBeLessThanOrEqual(9999);
    }
    expect(seen.size).toBe(8);
    expect(CallsignSchema.safeParse('Agent0').success).toBe(false);
    expect(CallsignSchema.safeParse('Agent10000').success).toBe(false);
    expect(CallsignSchema.safeParse('Spy12').success).toBe(false);
  });

  it('checks a callsign without the schema, with the same answer', () => {
    const samples = [
      generateCallsign(),
      'Agent1',
      'Agent9999',
      'Agent0',
      'Agent01',
      'Agent10000',
      ' Agent12',
      'Agent12 ',
      'agent12',
      'Spy12',
      '',
      'Agent12\n',
    ];
    for (const sample of samples)
      expect(isCallsign(sample), sample).toBe(CallsignSchema.safeParse(sample).success);
    expect(isCallsign('Agent12')).toBe(true);
  });
});
