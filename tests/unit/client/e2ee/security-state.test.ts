/**
 * The security state's pure parts (spec 000 §4 "Security level label", "Certificate status",
 * §7, §8): the level label, the PFS exchange's key confirmation, and the
 * entropy mixing that never relies on the server.
 */
import { describe, expect, it } from 'vitest';
import { PfsKeyRing } from '../../../../server/features/security/index.js';
import { TEXT } from '../../../../shared/protocol/errors.js';
import {
  authenticationLabel,
  securityLevelLabel,
} from '../../../../client/features/e2ee/security-level.js';
import { exchangePfsKey, PfsExchangeError } from '../../../../client/features/e2ee/pfs-exchange.js';
import {
  EntropyPool,
  fetchServerEntropy,
  ServerEntropyError,
} from '../../../../client/features/e2ee/entropy-pool.js';

describe('securityLevelLabel (spec 000 §4)', () => {
  const cases: [boolean, boolean, boolean, string][] = [
    [true, true, true, 'MAXIMUM'],
    [true, true, false, 'ENTERPRISE'],
    [true, false, true, 'ENTERPRISE'],
    [false, true, true, 'ENTERPRISE'],
    [true, false, false, 'ENHANCED'],
    [false, true, false, 'ENHANCED'],
    [false, false, true, 'ENHANCED'],
    [false, false, false, 'BASIC'],
  ];
  it.each(cases)(
    'certificate %s, ZK key %s, forward-secrecy key %s → %s',
    (isCertificateOk, hasZeroKnowledgeKey, hasForwardSecrecyKey, label) => {
      expect(
        securityLevelLabel({ isCertificateOk, hasZeroKnowledgeKey, hasForwardSecrecyKey }),
      ).toBe(label);
    },
  );

  it('labels a key holder AUTHENTICATED and anyone else PUBLIC', () => {
    expect(authenticationLabel(true)).toBe('AUTHENTICATED');
    expect(authenticationLabel(false)).toBe('PUBLIC');
  });
});

/** A fetch that answers like the server's routes, backed by the server's own PFS key ring. */
function serverFetch(options: { tamper?: boolean; status?: number } = {}): typeof fetch {
  const ring = new PfsKeyRing(Date.now);
  return async (input, init) => {
    if (options.status) return new Response('{"error":"down"}', { status: options.status });
    const body = JSON.parse(String(init?.body)) as { clientPublicKey: string; clientKeyId: string };
    const answer = ring.exchange(body.clientPublicKey, body.clientKeyId);
    expect(String(input)).toBe('/api/pfs/exchange');
    const confirmation = options.tamper
      ? Buffer.alloc(32, 1).toString('base64')
      : answer.confirmation;
    return Response.json({ ...answer, confirmation });
  };
}

describe('PFS exchange (spec 000 §7)', () => {
  it("checks the server's key confirmation and reports its key id", async () => {
    const key = await exchangePfsKey(serverFetch());
    expect(key.keyId).toMatch(/^pfs_[0-9a-f]{16}$/);
  });

  it("fails with 'PFS key exchange failed' on a wrong confirmation or an error answer", async () => {
    for (const fetcher of [serverFetch({ tamper: true }), serverFetch({ status: 500 })]) {
      const failure = exchangePfsKey(fetcher);
      await expect(failure).rejects.toBeInstanceOf(PfsExchangeError);
      await expect(failure).rejects.toThrow(TEXT.pfsKeyExchangeFailed);
    }
  });
});

describe('entropy mixing', () => {
  const fixedLocal = (count: number) => new Uint8Array(count).fill(7);

  it('mixes server entropy in, and never depends on it alone', () => {
    const localOnly = new EntropyPool(fixedLocal);
    const mixed = new EntropyPool(fixedLocal);
    mixed.setServerEntropy(new Uint8Array(32).fill(9));
    expect(mixed.hasServerEntropy).toBe(true);
    const a = localOnly.draw(32);
    const b = mixed.draw(32);
    expect(a).toHaveLength(32);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false);
    // Every draw differs even from a constant source (the counter is in the info).
    expect(Buffer.from(localOnly.draw(32)).equals(Buffer.from(a))).toBe(false);
    // Real local randomness: two pools with the same server entropy still differ.
    const one = new EntropyPool();
    const two = new EntropyPool();
    one.setServerEntropy(new Uint8Array(32));
    two.setServerEntropy(new Uint8Array(32));
    expect(Buffer.from(one.draw(64)).equals(Buffer.from(two.draw(64)))).toBe(false);
  });

  it("reports a failed entropy call with the spec's text and its status", async () => {
    const failing: typeof fetch = async () => new Response('', { status: 503 });
    const failure = fetchServerEntropy(failing);
    await expect(failure).rejects.toBeInstanceOf(ServerEntropyError);
    await expect(failure).rejects.toThrow('Server entropy request failed with status 503');
    const answer: typeof fetch = async () =>
      Response.json({ serverEntropy: 'ab'.repeat(32), salt: 'cd'.repeat(16), iterations: 100000 });
    expect(await fetchServerEntropy(answer)).toHaveLength(32);
  });
});
