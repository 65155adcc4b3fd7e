import { describe, expect, it } from 'vitest';
import { normalizeSecureId, secureIdForKey } from '../../../../shared/ids.js';
import { type RegisteredUser } from '../../../../shared/protocol/http/auth.js';
import {
  findRecipient,
  isRecipientFormat,
  parseStoredTarget,
  toRecipientInput,
} from '../../../../client/features/dm/recipient-match.js';

function user(keyId: string, username: string, secureId = secureIdForKey(keyId)): RegisteredUser {
  return { keyId, secureId, normalizedSecureId: normalizeSecureId(secureId), username };
}

const bob = user('SCK0a1b2c3d4e5f60718293a4b5c6d7e8f9', 'bob');
const carol = user('SCKffeeddccbbaa99887766554433221100', 'carol');
const users = [bob, carol];

describe('recipient input (spec 001 §5)', () => {
  it('upper-cases what is typed', () => {
    expect(toRecipientInput('sck_0a1b2c3d')).toBe('SCK_0A1B2C3D');
  });

  it('accepts the shape of a secure id or a key id in the local check, nothing else', () => {
    expect(isRecipientFormat('SCK_0A1B2C3D')).toBe(true);
    expect(isRecipientFormat(' sck_0a1b2c3d ')).toBe(true);
    expect(isRecipientFormat(bob.keyId)).toBe(true);
    expect(isRecipientFormat(bob.keyId.toUpperCase())).toBe(true);
    expect(isRecipientFormat('SCK_0A1B2C3')).toBe(false);
    expect(isRecipientFormat('SCK_0A1B2C3G')).toBe(false);
    expect(isRecipientFormat('bob')).toBe(false);
    expect(isRecipientFormat('')).toBe(false);
  });
});

describe('recipient matching (spec 001 §5)', () => {
  it('matches an exact keyId', () => {
    expect(findRecipient(bob.keyId, users)).toBe(bob);
  });

  it('matches a secure id case-insensitively', () => {
    expect(bob.secureId).toBe('SCK_0A1B2C3D');
    expect(findRecipient('SCK_0A1B2C3D', users)).toBe(bob);
    expect(findRecipient('sck_0a1b2c3d', users)).toBe(bob);
    expect(findRecipient('  SCK_FFEEDDCC ', users)).toBe(carol);
  });

  it('matches by normalizedSecureId, SCK_ kept and the rest lowercased', () => {
    const odd = user('SCK11112222333344445555666677778888', 'odd', 'SCK_AbCdEf12');
    expect(odd.normalizedSecureId).toBe('SCK_abcdef12');
    expect(findRecipient('sck_ABCDEF12', [odd])).toBe(odd);
  });

  it('still finds a pasted key id after the field upper-cased it', () => {
    expect(findRecipient(toRecipientInput(bob.keyId), users)).toBe(bob);
  });

  it('finds nobody for an unknown id, a username or an empty field', () => {
    expect(findRecipient('SCK_DEADBEEF', users)).toBeNull();
    expect(findRecipient('bob', users)).toBeNull();
    expect(findRecipient('   ', users)).toBeNull();
    expect(findRecipient('SCK_0A1B2C3D', [])).toBeNull();
  });
});

describe('dm_target_user hand-over', () => {
  it('pre-fills the recipient upper-cased, and ignores empty or oversized values', () => {
    expect(parseStoredTarget(' sck_0a1b2c3d ')).toBe('SCK_0A1B2C3D');
    expect(parseStoredTarget(null)).toBeNull();
    expect(parseStoredTarget('   ')).toBeNull();
    expect(parseStoredTarget('x'.repeat(81))).toBeNull();
  });
});
