/**
 * The cost of one ML-DSA-65 operation, timed in this process (pinned to the generator's CPU,
 * idle at that moment) with the same functions the product uses (shared/crypto/ml-dsa.ts). The
 * server's verify worker runs the same library call (`ml_dsa65.verify`).
 */
import { utf8Encode } from '../../../shared/crypto/bytes.js';
import { generateMlDsaKeyPair, signMlDsa, verifyMlDsa } from '../../../shared/crypto/ml-dsa.js';

export interface MlDsaCost {
  verifyIterations: number;
  verifyMeanUs: number;
  signIterations: number;
  signMeanUs: number;
}

export function measureMlDsaCost(verifyIterations: number, signIterations: number): MlDsaCost {
  const { publicKey, secretKey } = generateMlDsaKeyPair();
  const message = utf8Encode(
    `securechannel-login:SCK${'0'.repeat(32)}:1700000000000:${'ab'.repeat(32)}`,
  );
  let signature = signMlDsa(message, secretKey);
  // Warm-up, so that the JIT has compiled both paths before timing.
  for (let i = 0; i < 10; i += 1) {
    signature = signMlDsa(message, secretKey);
    if (!verifyMlDsa(signature, message, publicKey)) throw new Error('ML-DSA self-test failed');
  }
  let start = performance.now();
  for (let i = 0; i < verifyIterations; i += 1) verifyMlDsa(signature, message, publicKey);
  const verifyMeanUs = ((performance.now() - start) * 1000) / verifyIterations;
  start = performance.now();
  for (let i = 0; i < signIterations; i += 1) signMlDsa(message, secretKey);
  const signMeanUs = ((performance.now() - start) * 1000) / signIterations;
  return { verifyIterations, verifyMeanUs, signIterations, signMeanUs };
}
