import { describe, expect, it } from 'vitest';
import { EncryptionTypeSchema } from '../../../../../shared/protocol/ws/chat.js';
import {
  availableEncryptionTypes,
  ENCRYPTION_TYPE_SEQUENCE,
  isMessageEncryptionType,
  pickEncryptionType,
  RSA_OAEP_MAX_MEMBERS,
} from '../../../../../shared/crypto/room/index.js';

const everything = { hasAccessCode: true, memberCount: 2 };

describe('encryption type rotation', () => {
  it('lists the seven types of spec 000 §9, all valid encryptionType values', () => {
    expect(ENCRYPTION_TYPE_SEQUENCE).toEqual([
      'PFS-ECDH',
      'AES-256-GCM',
      'AES-256-CBC',
      'RSA-OAEP',
      'ZK-AES-256',
      'E2EE-AES',
      'quantum',
    ]);
    for (const type of ENCRYPTION_TYPE_SEQUENCE) {
      expect(EncryptionTypeSchema.parse(type)).toBe(type);
    }
    expect(isMessageEncryptionType('PLAINTEXT')).toBe(false);
    expect(isMessageEncryptionType('none')).toBe(false);
  });

  it('cycles through all seven in order in a small room with an access code', () => {
    const picked = Array.from({ length: 14 }, (_, index) => pickEncryptionType(index, everything));
    expect(picked).toEqual([...ENCRYPTION_TYPE_SEQUENCE, ...ENCRYPTION_TYPE_SEQUENCE]);
  });

  it('skips ZK-AES-256 in a room without an access code, using the others equally often', () => {
    const conditions = { hasAccessCode: false, memberCount: 5 };
    const picked = Array.from({ length: 60 }, (_, index) => pickEncryptionType(index, conditions));
    expect(picked).not.toContain('ZK-AES-256');
    const counts = new Map<string, number>();
    for (const type of picked) counts.set(type, (counts.get(type) ?? 0) + 1);
    expect([...counts.values()]).toEqual([10, 10, 10, 10, 10, 10]);
  });

  it(`skips RSA-OAEP above ${RSA_OAEP_MAX_MEMBERS} members and keeps it at exactly that many`, () => {
    expect(availableEncryptionTypes({ hasAccessCode: true, memberCount: 60 })).toContain(
      'RSA-OAEP',
    );
    const crowded = availableEncryptionTypes({ hasAccessCode: false, memberCount: 61 });
    expect(crowded).toEqual(['PFS-ECDH', 'AES-256-GCM', 'AES-256-CBC', 'E2EE-AES', 'quantum']);
  });

  it('refuses a negative or fractional sequence number', () => {
    expect(() => pickEncryptionType(-1, everything)).toThrow(RangeError);
    expect(() => pickEncryptionType(0.5, everything)).toThrow(RangeError);
  });
});
