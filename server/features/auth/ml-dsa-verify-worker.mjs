// Worker thread: verifies ML-DSA-65 signatures off the main event loop (about 1.8 ms of CPU each),
// so a burst of logins never stalls chat delivery. Plain JavaScript so it loads without a
// TypeScript loader; the checks mirror shared/crypto/ml-dsa.ts (verifyMlDsa).
import { parentPort } from 'node:worker_threads';
import { ml_dsa65 } from '@noble/post-quantum/ml-dsa.js';

const SIGNATURE_BYTES = 3309;
const PUBLIC_KEY_BYTES = 1952;

function verify(signature, message, publicKey) {
  if (!(signature instanceof Uint8Array) || signature.length !== SIGNATURE_BYTES) return false;
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== PUBLIC_KEY_BYTES) return false;
  if (!(message instanceof Uint8Array)) return false;
  try {
    return ml_dsa65.verify(signature, message, publicKey);
  } catch {
    return false;
  }
}

parentPort.on('message', (job) => {
  parentPort.postMessage({ id: job.id, valid: verify(job.signature, job.message, job.publicKey) });
});
