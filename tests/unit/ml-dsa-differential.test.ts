/**
 * The ML-DSA-65 differential test, first half (the fixtures and what they check:
 * tests/support/ml-dsa-differential.ts; the second half is
 * tests/unit/ml-dsa-differential-second-half.test.ts), and how the verifier loads.
 */
import { describe, expect, it } from 'vitest';
import { loadMlDsaVerifier } from '../../server/features/auth/ml-dsa-verifier.mjs';
import { describeDifferential } from '../support/ml-dsa-differential.js';

describeDifferential(0);

describe('ML-DSA-65 verifier loading', () => {
  it('falls back to @noble, and says why, when the fast one cannot load', async () => {
    const loaded = await loadMlDsaVerifier(() => Promise.reject(new Error('no WebAssembly here')));
    expect(loaded.implementation).toBe('noble-js');
    expect(loaded.fallbackReason).toBe('no WebAssembly here');
  });

  it('refuses a fast implementation that answers wrongly', async () => {
    const loaded = await loadMlDsaVerifier(() =>
      Promise.resolve({ implementation: 'liboqs-wasm', verify: () => true }),
    );
    expect(loaded.implementation).toBe('noble-js');
    expect(loaded.fallbackReason).toMatch(/altered signature was accepted/);
  });
});
