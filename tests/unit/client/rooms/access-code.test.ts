import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isAccessCodeFilled, sha256Hex } from '../../../../client/features/rooms/access-code.js';

describe('sha256Hex (spec 000 §5: access codes travel as SHA-256 hex)', () => {
  it('matches the FIPS 180-4 known answers', async () => {
    expect(await sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(await sha256Hex('')).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
  });

  it('hashes the UTF-8 bytes, as the server test helper does', async () => {
    const code = 'pässwörd-🔐';
    expect(await sha256Hex(code)).toBe(createHash('sha256').update(code, 'utf8').digest('hex'));
  });

  it('hashes the code exactly as typed, spaces included', async () => {
    expect(await sha256Hex(' abc')).not.toBe(await sha256Hex('abc'));
  });
});

describe('isAccessCodeFilled (spec 000 §5)', () => {
  it('refuses empty and whitespace-only codes', () => {
    expect(isAccessCodeFilled('')).toBe(false);
    expect(isAccessCodeFilled('   \t')).toBe(false);
    expect(isAccessCodeFilled(' x ')).toBe(true);
  });
});
