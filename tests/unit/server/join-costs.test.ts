/** What a join computes once and keeps: address tags and random grant tokens. */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ModerationService,
  type ModerationServiceDeps,
} from '../../../server/features/moderation/service.js';
import { newToken } from '../../../server/features/rooms/access-grants.js';

describe('grant tokens', () => {
  it('are 24 random bytes in base64url, never repeated across many draws of the pool', () => {
    const tokens = Array.from({ length: 1000 }, () => newToken());
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(new Set(tokens).size).toBe(tokens.length);
  });
});

describe('address tags', () => {
  function service(key: () => Buffer) {
    let asked = 0;
    const store = {
      addressKey: async () => {
        asked += 1;
        return key();
      },
    };
    const deps = { store } as unknown as ModerationServiceDeps;
    return { moderation: new ModerationService(deps), asked: () => asked };
  }
  const hmac = (key: Buffer, address: string) =>
    createHmac('sha256', key).update(address).digest('hex').slice(0, 32);

  it('are the keyed hash of the address, the same on every call', async () => {
    const key = Buffer.alloc(32, 7);
    const { moderation } = service(() => key);
    for (let i = 0; i < 3; i += 1) {
      expect(await moderation.addressTag('203.0.113.5')).toBe(hmac(key, '203.0.113.5'));
      expect(await moderation.addressTag('203.0.113.6')).toBe(hmac(key, '203.0.113.6'));
    }
  });

  it('follow a change of key', async () => {
    let key = Buffer.alloc(32, 1);
    const { moderation } = service(() => key);
    expect(await moderation.addressTag('198.51.100.1')).toBe(hmac(key, '198.51.100.1'));
    key = Buffer.alloc(32, 2);
    expect(await moderation.addressTag('198.51.100.1')).toBe(hmac(key, '198.51.100.1'));
  });

  it('stay right past the number kept', async () => {
    const key = Buffer.alloc(32, 3);
    const { moderation } = service(() => key);
    for (let i = 0; i < 5000; i += 1) await moderation.addressTag(`10.0.${i >> 8}.${i & 255}`);
    expect(await moderation.addressTag('10.0.0.1')).toBe(hmac(key, '10.0.0.1'));
    expect(await moderation.addressTag('10.0.19.0')).toBe(hmac(key, '10.0.19.0'));
  });
});
