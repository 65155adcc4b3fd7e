/**
 * TURN credentials in coturn's shared-secret scheme (server/features/voice/turn-credentials.ts).
 * The known answers were computed with OpenSSL, independently of Node's crypto:
 *   printf '%s' USERNAME | openssl dgst -sha1 -hmac SECRET -binary | base64
 */
import { describe, expect, it } from 'vitest';
import { issueTurnCredential, turnPassword } from '../../../server/features/voice/index.js';

describe('TURN credentials (coturn use-auth-secret)', () => {
  it('matches HMAC-SHA1 known answers', () => {
    expect(turnPassword('secret', 'username')).toBe('Y+xc9oPStdL4iPyZk5J5hPDAs5M=');
    expect(turnPassword('north-wind-shared-secret', '1700000000:node_0123456789abcdef')).toBe(
      'YrWtWOo3+WTZgJizeTcGVIm6dHI=',
    );
  });

  it('names the expiry in Unix seconds and the socket, and signs that name', () => {
    const credential = issueTurnCredential(
      'north-wind-shared-secret',
      'node_0123456789abcdef',
      3600,
      1_699_996_400_999,
    );
    expect(credential).toEqual({
      username: '1700000000:node_0123456789abcdef',
      credential: 'YrWtWOo3+WTZgJizeTcGVIm6dHI=',
      ttlSeconds: 3600,
    });
  });

  it('gives another credential for another secret, expiry or id', () => {
    const base = issueTurnCredential('secret-one-0123456', 'node_a', 60, 0);
    expect(issueTurnCredential('secret-two-0123456', 'node_a', 60, 0).credential).not.toBe(
      base.credential,
    );
    expect(issueTurnCredential('secret-one-0123456', 'node_a', 61, 0).credential).not.toBe(
      base.credential,
    );
    expect(issueTurnCredential('secret-one-0123456', 'node_b', 60, 0).credential).not.toBe(
      base.credential,
    );
  });
});
