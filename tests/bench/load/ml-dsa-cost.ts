/**
 * The cost of the verifications one login needs, timed in this process (pinned to the generator's
 * CPU, idle at that moment), as CPU time (process.cpuUsage), so that other processes on the
 * machine do not inflate it: ML-DSA-65 with each verifier the server can run (server/features/
 * auth/ml-dsa-verifier.mjs: liboqs in WebAssembly, and @noble/post-quantum as the fallback), and
 * ECDSA P-256 as the verify worker does it (node:crypto, an imported key kept, raw r ‖ s).
 * Signing is @noble's, as in the browser.
 */
import { createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import { utf8Encode } from '../../../shared/crypto/bytes.js';
import { generateMlDsaKeyPair, signMlDsa } from '../../../shared/crypto/ml-dsa.js';
import {
  liboqsMlDsaVerifier,
  nobleMlDsaVerifier,
  type MlDsaVerifier,
} from '../../../server/features/auth/ml-dsa-verifier.mjs';

export interface MlDsaVerifyCost {
  implementation: string;
  iterations: number;
  /** CPU µs per verification. */
  meanUs: number;
  /** Verifications per second of one core's CPU. */
  perSecond: number;
}

export interface MlDsaCost {
  verify: MlDsaVerifyCost[];
  /** ECDSA P-256 through node:crypto, as server/features/auth/login-verify-worker.mjs runs it. */
  ecdsa: MlDsaVerifyCost;
  signIterations: number;
  signMeanUs: number;
}

const cpuUs = () => {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
};

function timeVerify(
  verifier: MlDsaVerifier,
  iterations: number,
  message: Uint8Array,
  signature: Uint8Array,
  publicKey: Uint8Array,
): MlDsaVerifyCost {
  // Warm-up, so that the JIT (or the WebAssembly tier-up) has compiled the path before timing.
  for (let i = 0; i < Math.min(50, iterations); i += 1) {
    if (!verifier.verify(signature, message, publicKey)) {
      throw new Error(`${verifier.implementation}: ML-DSA self-test failed`);
    }
  }
  const start = cpuUs();
  for (let i = 0; i < iterations; i += 1) verifier.verify(signature, message, publicKey);
  const meanUs = (cpuUs() - start) / iterations;
  return { implementation: verifier.implementation, iterations, meanUs, perSecond: 1e6 / meanUs };
}

/**
 * ECDSA P-256 as the verify worker checks a login's signature: SHA-256 of the challenge, a raw
 * r ‖ s signature, the public key imported once (from its raw point, as a JWK) and kept.
 */
function timeEcdsa(iterations: number, message: Uint8Array): MlDsaVerifyCost {
  const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = pair.publicKey.export({ format: 'jwk' });
  const key = createPublicKey({ format: 'jwk', key: jwk });
  const signature = sign('sha256', message, { key: pair.privateKey, dsaEncoding: 'ieee-p1363' });
  const once = () => verify('sha256', message, { key, dsaEncoding: 'ieee-p1363' }, signature);
  for (let i = 0; i < Math.min(50, iterations); i += 1) {
    if (!once()) throw new Error('ECDSA P-256 self-test failed');
  }
  const start = cpuUs();
  for (let i = 0; i < iterations; i += 1) once();
  const meanUs = (cpuUs() - start) / iterations;
  return { implementation: 'node:crypto', iterations, meanUs, perSecond: 1e6 / meanUs };
}

export async function measureMlDsaCost(
  verifyIterations: number,
  signIterations: number,
): Promise<MlDsaCost> {
  const { publicKey, secretKey } = generateMlDsaKeyPair();
  const message = utf8Encode(
    `securechannel-login:SCK${'0'.repeat(32)}:1700000000000:${'ab'.repeat(32)}`,
  );
  const signature = signMlDsa(message, secretKey);
  const fast = await liboqsMlDsaVerifier();
  const verify = [
    timeVerify(fast, verifyIterations, message, signature, publicKey),
    // The pure JavaScript one is about twenty times slower: a tenth of the runs is enough.
    timeVerify(
      nobleMlDsaVerifier(),
      Math.ceil(verifyIterations / 10),
      message,
      signature,
      publicKey,
    ),
  ];
  const ecdsa = timeEcdsa(verifyIterations, message);
  const start = cpuUs();
  for (let i = 0; i < signIterations; i += 1) signMlDsa(message, secretKey);
  const signMeanUs = (cpuUs() - start) / signIterations;
  return { verify, ecdsa, signIterations, signMeanUs };
}
